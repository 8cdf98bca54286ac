import type { Readable } from 'node:stream';
import type { RecordingFiles, Sandbox, SandboxProxy } from './driver.js';
import type { BrowserRequest, BrowserResult, BrowserState, ExecRequest, ExecResult, LiveInput, LoginCheck, LoginCheckResult, LoginLoaded, LoginRequest, MaskForm, OutputLimits, OutputListing } from './protocol.js';
import { SandboxError } from './sandbox-error.js';
import type { SupervisorClient } from './supervisor-client.js';

/**
 * What every driver's sandbox does the same way: each call goes to the supervisor inside it, unless the sandbox was
 * destroyed. A driver adds how its sandbox is made and removed (`destroy`, which sets `destroying`).
 */
export abstract class SupervisorSandbox implements Sandbox {
  protected destroying: Promise<void> | undefined;

  protected constructor(
    readonly id: string,
    protected readonly client: SupervisorClient,
  ) {}

  abstract destroy(): Promise<void>;

  abstract readonly reachesHost: boolean;

  /** Drops the connections to the supervisor, in the background: a destroy never waits on a host that stopped answering. */
  protected closeClient(): void {
    void this.client.close().catch(() => undefined);
  }

  get destroyed(): boolean {
    return this.destroying !== undefined;
  }

  async useProxy(proxy: SandboxProxy, signal: AbortSignal): Promise<void> {
    this.assertAlive();
    return this.client.setProxy(proxy.request, signal);
  }

  async exec(request: ExecRequest, signal: AbortSignal): Promise<ExecResult> {
    this.assertAlive();
    return this.client.exec(request, signal);
  }

  async browser(request: BrowserRequest, signal: AbortSignal): Promise<BrowserResult> {
    this.assertAlive();
    return this.client.browser(request, signal);
  }

  async useLogin(request: LoginRequest, signal: AbortSignal): Promise<LoginLoaded> {
    this.assertAlive();
    return this.client.useLogin(request, signal);
  }

  async readLogin(signal: AbortSignal): Promise<BrowserState> {
    this.assertAlive();
    return this.client.readLogin(signal);
  }

  async checkLogin(check: LoginCheck, signal: AbortSignal): Promise<LoginCheckResult> {
    this.assertAlive();
    return this.client.checkLogin(check, signal);
  }

  async startRecording(signal: AbortSignal): Promise<void> {
    this.assertAlive();
    return this.client.startRecording(signal);
  }

  async finishRecording(mask: readonly MaskForm[], signal: AbortSignal): Promise<RecordingFiles | null> {
    this.assertAlive();
    return this.client.finishRecording(mask, signal);
  }

  async putInput(name: string, content: Readable, signal: AbortSignal): Promise<void> {
    this.assertAlive();
    return this.client.putInput(name, content, signal);
  }

  async liveFrames(signal: AbortSignal): Promise<ReadableStream<Uint8Array>> {
    this.assertAlive();
    return this.client.liveFrames(signal);
  }

  async liveInput(input: LiveInput, signal: AbortSignal): Promise<void> {
    this.assertAlive();
    return this.client.liveInput(input, signal);
  }

  async limitOutputs(limits: OutputLimits, signal: AbortSignal): Promise<void> {
    this.assertAlive();
    return this.client.limitOutputs(limits, signal);
  }

  async listOutputs(signal: AbortSignal): Promise<OutputListing> {
    this.assertAlive();
    return this.client.listOutputs(signal);
  }

  async readOutput(name: string, signal: AbortSignal): Promise<ReadableStream<Uint8Array>> {
    this.assertAlive();
    return this.client.readOutput(name, signal);
  }

  protected assertAlive(): void {
    if (this.destroying !== undefined) throw new SandboxError(`sandbox ${this.id} was destroyed`, { code: 'destroyed' });
  }
}
