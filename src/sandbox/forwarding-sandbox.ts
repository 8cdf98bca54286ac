import type { Readable } from 'node:stream';
import type { RecordingFiles, Sandbox, SandboxProxy } from './driver.js';
import type { BrowserRequest, BrowserResult, BrowserState, ExecRequest, ExecResult, LiveInput, LoginCheck, LoginCheckResult, LoginLoaded, LoginRequest, MaskForm, OutputLimits, OutputListing } from './protocol.js';

/**
 * A sandbox that passes every call on to another: the base of the wrappers that change a few of them (the gate of a
 * remote host's sandbox, the recipe's observer), so that a method the `Sandbox` interface gains is forwarded in one
 * place and a wrapper states only what it does differently.
 */
export class ForwardingSandbox implements Sandbox {
  constructor(protected readonly inner: Sandbox) {}

  get id(): string {
    return this.inner.id;
  }

  get reachesHost(): boolean {
    return this.inner.reachesHost;
  }

  useProxy(proxy: SandboxProxy, signal: AbortSignal): Promise<void> {
    return this.inner.useProxy(proxy, signal);
  }

  exec(request: ExecRequest, signal: AbortSignal): Promise<ExecResult> {
    return this.inner.exec(request, signal);
  }

  browser(request: BrowserRequest, signal: AbortSignal): Promise<BrowserResult> {
    return this.inner.browser(request, signal);
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

  putInput(name: string, content: Readable, signal: AbortSignal): Promise<void> {
    return this.inner.putInput(name, content, signal);
  }

  liveFrames(signal: AbortSignal): Promise<ReadableStream<Uint8Array>> {
    return this.inner.liveFrames(signal);
  }

  liveInput(input: LiveInput, signal: AbortSignal): Promise<void> {
    return this.inner.liveInput(input, signal);
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
