import type { Sandbox, SandboxProxy } from './driver.js';
import { ForwardingSandbox } from './forwarding-sandbox.js';
import type { BrowserRequest, BrowserResult, BrowserState, ExecRequest, ExecResult, LiveInput, LoginCheck, LoginCheckResult, LoginLoaded, LoginRequest } from './protocol.js';

/**
 * A sandbox whose actions wait for `gate`: what lets the run reach out of it (code, the browser, a person's input to
 * the page, the proxy that relaunches the browser) runs only once the gate has resolved, and fails with its error if
 * it rejects. Its housekeeping (files in and out, the recording, the live view's frames, removal) does not wait.
 *
 * The docker host set hands a run the sandbox on a remote host this way while it looks at that host's firewall, so
 * that the look costs the run's start nothing (the run's first model call hides it) and no action runs before the
 * rules were seen in place.
 */
export class GatedSandbox extends ForwardingSandbox {
  constructor(
    inner: Sandbox,
    private readonly gate: Promise<void>,
  ) {
    super(inner);
    // A gate that fails before any action waited for it is no unhandled rejection: the driver acted on it already.
    gate.catch(() => undefined);
  }

  override async useProxy(proxy: SandboxProxy, signal: AbortSignal): Promise<void> {
    await this.gate;
    return this.inner.useProxy(proxy, signal);
  }

  override async exec(request: ExecRequest, signal: AbortSignal): Promise<ExecResult> {
    await this.gate;
    return this.inner.exec(request, signal);
  }

  override async browser(request: BrowserRequest, signal: AbortSignal): Promise<BrowserResult> {
    await this.gate;
    return this.inner.browser(request, signal);
  }

  override async useLogin(request: LoginRequest, signal: AbortSignal): Promise<LoginLoaded> {
    await this.gate;
    return this.inner.useLogin(request, signal);
  }

  override async readLogin(signal: AbortSignal): Promise<BrowserState> {
    await this.gate;
    return this.inner.readLogin(signal);
  }

  override async checkLogin(check: LoginCheck, signal: AbortSignal): Promise<LoginCheckResult> {
    await this.gate;
    return this.inner.checkLogin(check, signal);
  }

  override async liveInput(input: LiveInput, signal: AbortSignal): Promise<void> {
    await this.gate;
    return this.inner.liveInput(input, signal);
  }
}
