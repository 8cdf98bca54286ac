import type { Readable } from 'node:stream';
import type { RecordingFiles, Sandbox, SandboxProxy } from '../sandbox/driver.js';
import type { BrowserRequest, BrowserResult, BrowserState, ExecRequest, ExecResult, LiveInput, LoginCheck, LoginCheckResult, LoginLoaded, LoginRequest, MaskForm, OutputLimits, OutputListing } from '../sandbox/protocol.js';

/** One thing a run did in its sandbox, as the supervisor was asked and answered. */
export type Observation = { kind: 'browser'; request: BrowserRequest; result: BrowserResult } | { kind: 'exec'; request: ExecRequest; result: ExecResult };

/**
 * A run's sandbox that keeps what the agent (or a replay) did in it, in order, for the recipe its success makes
 * (recipe-builder.ts). Everything is forwarded unchanged; the list lives as long as the attempt.
 */
export class ObservedSandbox implements Sandbox {
  readonly observations: Observation[] = [];

  constructor(private readonly inner: Sandbox) {}

  /** The sandbox itself, for what the daemon reads without it being a step of the run. */
  get unobserved(): Sandbox {
    return this.inner;
  }

  get id(): string {
    return this.inner.id;
  }

  get reachesHost(): boolean {
    return this.inner.reachesHost;
  }

  async exec(request: ExecRequest, signal: AbortSignal): Promise<ExecResult> {
    const result = await this.inner.exec(request, signal);
    this.observations.push({ kind: 'exec', request, result });
    return result;
  }

  async browser(request: BrowserRequest, signal: AbortSignal): Promise<BrowserResult> {
    const result = await this.inner.browser(request, signal);
    this.observations.push({ kind: 'browser', request, result });
    return result;
  }

  useLogin(request: LoginRequest, signal: AbortSignal): Promise<LoginLoaded> {
    return this.inner.useLogin(request, signal);
  }

  readLogin(signal: AbortSignal): Promise<BrowserState> {
    return this.inner.readLogin(signal);
  }

  checkLogin(check: LoginCheck, signal: AbortSignal): Promise<LoginCheckResult> {
    return this.inner.checkLogin(check, signal);
  }

  startRecording(signal: AbortSignal): Promise<void> {
    return this.inner.startRecording(signal);
  }

  finishRecording(mask: readonly MaskForm[], signal: AbortSignal): Promise<RecordingFiles | null> {
    return this.inner.finishRecording(mask, signal);
  }

  liveFrames(signal: AbortSignal): Promise<ReadableStream<Uint8Array>> {
    return this.inner.liveFrames(signal);
  }

  liveInput(input: LiveInput, signal: AbortSignal): Promise<void> {
    return this.inner.liveInput(input, signal);
  }

  useProxy(proxy: SandboxProxy, signal: AbortSignal): Promise<void> {
    return this.inner.useProxy(proxy, signal);
  }

  putInput(name: string, content: Readable, signal: AbortSignal): Promise<void> {
    return this.inner.putInput(name, content, signal);
  }

  limitOutputs(limits: OutputLimits, signal: AbortSignal): Promise<void> {
    return this.inner.limitOutputs(limits, signal);
  }

  listOutputs(signal: AbortSignal): Promise<OutputListing> {
    return this.inner.listOutputs(signal);
  }

  readOutput(name: string, signal: AbortSignal): Promise<ReadableStream<Uint8Array>> {
    return this.inner.readOutput(name, signal);
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }
}
