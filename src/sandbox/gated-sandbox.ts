import type { Readable } from 'node:stream';
import type { RecordingFiles, Sandbox, SandboxProxy } from './driver.js';
import type { BrowserRequest, BrowserResult, ExecRequest, ExecResult, LiveInput, MaskForm, OutputLimits, OutputListing } from './protocol.js';

/**
 * A sandbox whose actions wait for `gate`: what lets the run reach out of it (code, the browser, a person's input to
 * the page, the proxy that relaunches the browser) runs only once the gate has resolved, and fails with its error if
 * it rejects. Its housekeeping (files in and out, the recording, the live view's frames, removal) does not wait.
 *
 * The docker host set hands a run the sandbox on a remote host this way while it looks at that host's firewall, so
 * that the look costs the run's start nothing (the run's first model call hides it) and no action runs before the
 * rules were seen in place.
 */
export class GatedSandbox implements Sandbox {
  constructor(
    private readonly inner: Sandbox,
    private readonly gate: Promise<void>,
  ) {
    // A gate that fails before any action waited for it is no unhandled rejection: the driver acted on it already.
    gate.catch(() => undefined);
  }

  get id(): string {
    return this.inner.id;
  }

  get reachesHost(): boolean {
    return this.inner.reachesHost;
  }

  async useProxy(proxy: SandboxProxy, signal: AbortSignal): Promise<void> {
    await this.gate;
    return this.inner.useProxy(proxy, signal);
  }

  async exec(request: ExecRequest, signal: AbortSignal): Promise<ExecResult> {
    await this.gate;
    return this.inner.exec(request, signal);
  }

  async browser(request: BrowserRequest, signal: AbortSignal): Promise<BrowserResult> {
    await this.gate;
    return this.inner.browser(request, signal);
  }

  async liveInput(input: LiveInput, signal: AbortSignal): Promise<void> {
    await this.gate;
    return this.inner.liveInput(input, signal);
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
