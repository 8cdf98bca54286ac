import type { Sandbox } from '../sandbox/driver.js';
import { ForwardingSandbox } from '../sandbox/forwarding-sandbox.js';
import type { BrowserRequest, BrowserResult, ExecRequest, ExecResult } from '../sandbox/protocol.js';

/** One thing a run did in its sandbox, as the supervisor was asked and answered. */
export type Observation = { kind: 'browser'; request: BrowserRequest; result: BrowserResult } | { kind: 'exec'; request: ExecRequest; result: ExecResult };

/**
 * A run's sandbox that keeps what the agent (or a replay) did in it, in order, for the recipe its success makes
 * (recipe-builder.ts). Everything is forwarded unchanged; the list lives as long as the attempt.
 */
export class ObservedSandbox extends ForwardingSandbox {
  readonly observations: Observation[] = [];

  /** The sandbox itself, for what the daemon reads without it being a step of the run. */
  get unobserved(): Sandbox {
    return this.inner;
  }

  override async exec(request: ExecRequest, signal: AbortSignal): Promise<ExecResult> {
    const result = await this.inner.exec(request, signal);
    this.observations.push({ kind: 'exec', request, result });
    return result;
  }

  override async browser(request: BrowserRequest, signal: AbortSignal): Promise<BrowserResult> {
    const result = await this.inner.browser(request, signal);
    this.observations.push({ kind: 'browser', request, result });
    return result;
  }
}
