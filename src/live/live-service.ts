import { randomBytes } from 'node:crypto';
import { isoTime, type Clock } from '../clock.js';
import { ConflictError, InvalidRequestError } from '../errors.js';
import type { Answerer, HumanRequests } from '../human/human-requests.js';
import { waitingForOf } from '../runs/waiting-for.js';
import type { Config } from '../config/schema.js';
import type { Store } from '../store/store.js';
import type { Waitpoints } from '../waitpoints/waitpoints.js';
import type { OrgModes } from '../orgs/org-modes.js';
import type { RunEnvelope } from '../runs/envelope.js';
import type { RunsService } from '../runs/runs-service.js';
import type { BrowserState, LiveInput } from '../sandbox/protocol.js';
import type { RunRow } from '../store/runs-table.js';
import { SandboxError } from '../sandbox/sandbox-error.js';
import type { StepsStore } from '../store/steps-store.js';
import { ControlHeldError, LiveViewUnavailableError, NotInControlError } from './live-errors.js';
import { frameMasking } from './frame-masking.js';
import type { LiveLinks } from './live-links.js';
import type { LiveRun, LiveRuns } from './live-runs.js';
import { RunViewers } from './run-viewers.js';

/** A person's input that the supervisor has not taken in this long is dropped: a stuck page must not hold a request. */
const INPUT_TIMEOUT_MS = 5_000;

/** Who calls the live view: a live link's holder, or an API key of the run's organisation. */
export interface LiveCaller {
  orgId: string;
  /** `live link`, or `API key <id>`: what a takeover step says about who held control. */
  by: string;
  /** The live link's id (`LiveGrant.link`), or null for an API key. */
  link: string | null;
  /** Who answers a takeover request that handing control back answers (`handBack`), as POST /v1/runs/{id}/human would say. */
  answerer: Answerer;
}

export interface LiveControl {
  object: 'live_control';
  run_id: string;
  /** The controller's proof, sent with each input and the hand-back; only the caller that took control gets it. */
  control_id: string;
  since: string;
}

export interface LiveHandBack {
  object: 'live_control_ended';
  run_id: string;
  started_at: string;
  ended_at: string;
  duration_ms: number;
  /** The takeover request (request_human) the hand-back answered, or null when the run waited for none. */
  answered_request_id: string | null;
}

export interface LiveState {
  object: 'live_state';
  run: RunEnvelope;
  /** The text of the agent's latest model answer (its reasoning before its tool calls), or null. */
  thought: string | null;
  control: { held: boolean; since: string | null; by: string | null };
  viewers: number;
  /** The profiles "save this login" offers: the run's profile and save_profile (another name makes a new one). */
  profiles: string[];
}

/** Where "save this login" saves the browser's state (src/profiles: the run's own profiles, or a new one). */
export interface LoginSaver {
  save(run: RunRow, name: string, state: BrowserState, holder: 'live_link' | 'api_key'): object;
  targets(run: RunRow): string[];
}

/** Reading the browser's state for "save this login": a moment, unless the sandbox stopped answering. */
const READ_LOGIN_TIMEOUT_MS = 30_000;

export interface LiveRevocation {
  object: 'live_revocation';
  run_id: string;
  revoked_at: string;
  /** Whether someone held control, which the revocation ended (the agent then goes on). */
  control_released: boolean;
}

/**
 * The live view of running runs (docs/api.md, Live view): the browser's frames, a person's control of it (which
 * pauses the agent through the attempt's ControlGate) and input, the page's state, and revocation of a run's links.
 */
export class LiveService {
  private readonly viewers = new Map<string, RunViewers>();

  constructor(
    private readonly deps: {
      clock: Clock;
      links: LiveLinks;
      live: LiveRuns;
      runs: RunsService;
      steps: StepsStore;
      orgModes: Pick<OrgModes, 'livemode'>;
      human: Pick<HumanRequests, 'answer'>;
      /** A person's control is a waitpoint of the run while it lasts (docs/api.md, "What a run waits for"). */
      waitpoints: Waitpoints;
      store: Pick<Store, 'transaction'>;
      config: Pick<Config, 'human.timeout_s'>;
      logins: LoginSaver;
    },
  ) {}

  /** The waitpoint of each control held, by its control id, with the timer that takes control back at its end. */
  private readonly holdings = new Map<string, { waitpointId: string; expiry: NodeJS.Timeout }>();

  /**
   * The run's frames as server-sent events (`LiveFrame`, protocol.ts), relayed as the supervisor sends them with their
   * text masked (frame-masking.ts), until the caller goes (`signal`), gives way to its link's newer stream
   * (run-viewers.ts), the attempt ends (then the last event is `ended`) or the run's links are revoked (a link's).
   */
  async frames(caller: LiveCaller, runId: string, signal: AbortSignal): Promise<AsyncIterable<Uint8Array>> {
    const live = this.liveRun(caller, runId);
    const open = this.viewers.get(runId) ?? new RunViewers();
    const viewer = open.join(caller.link);
    this.viewers.set(runId, open);
    const leave = (): void => {
      open.leave(viewer);
      if (open.size === 0 && this.viewers.get(runId) === open) this.viewers.delete(runId);
    };
    const until = AbortSignal.any([signal, live.ended, viewer.stop.signal]);
    try {
      return relay((await live.sandbox.liveFrames(until)).pipeThrough(frameMasking(live.mask)), until, live.ended, leave);
    } catch (error) {
      leave();
      if (until.aborted) throw new LiveViewUnavailableError(runId, 'any more: the run stopped');
      if (error instanceof SandboxError) throw new LiveViewUnavailableError(runId, `now: its sandbox did not give one (${error.message})`);
      throw error;
    }
  }

  /** A person's input; only from whoever holds control (`control_id`). */
  async input(caller: LiveCaller, runId: string, controlId: string, input: LiveInput): Promise<void> {
    const live = this.liveRun(caller, runId);
    if (!live.gate.holds(controlId)) throw new NotInControlError();
    try {
      await live.sandbox.liveInput(input, AbortSignal.any([live.ended, AbortSignal.timeout(INPUT_TIMEOUT_MS)]));
    } catch (error) {
      if (error instanceof SandboxError && error.code === 'no_page') throw new LiveViewUnavailableError(runId, 'page yet: the agent has not opened the browser');
      if (error instanceof SandboxError && error.code === 'bad_request') throw new InvalidRequestError('invalid_input', error.message, { param: 'input' });
      if (error instanceof SandboxError) throw new LiveViewUnavailableError(runId, `now: its sandbox did not take the input (${error.message})`);
      throw error;
    }
  }

  /**
   * Takes control of the run's browser; the agent waits from its next model or tool call until it is handed back. The
   * control is a waitpoint of the run (`waiting_for` says who holds the browser), and the run's timeout_s stops
   * meanwhile; control not handed back within human_timeout_s is taken back, and the agent goes on.
   */
  take(caller: LiveCaller, runId: string): LiveControl {
    const live = this.liveRun(caller, runId);
    const controlId = `ctl_${randomBytes(18).toString('base64url')}`;
    const now = this.deps.clock.now();
    if (!live.gate.take(caller.by, controlId, now)) throw new ControlHeldError(isoTime(live.gate.holder!.sinceMs));
    const run = this.deps.runs.row(caller.orgId, runId);
    const limitS = run.human_timeout_s ?? this.deps.config['human.timeout_s'];
    let waitpointId: string;
    try {
      waitpointId = this.deps.store.transaction((uow) => this.deps.waitpoints.open(uow, run, { kind: 'takeover', timer: 'stopped', expiresAtMs: now + limitS * 1000, detail: { by: caller.by }, sinceMs: now })).id;
    } catch (error) {
      live.gate.release(now, null, true);
      throw error;
    }
    const expiry = setTimeout(() => this.takeBack(live, controlId, limitS), Math.max(0, limitS * 1000));
    this.holdings.set(controlId, { waitpointId, expiry });
    live.ended.addEventListener('abort', () => this.forget(controlId), { once: true });
    return { object: 'live_control', run_id: runId, control_id: controlId, since: isoTime(now) };
  }

  /**
   * Hands control back with a note of what was done; the agent goes on, told of it, and the run gets a step. When the
   * agent waits for a takeover (request_human), handing back is the person's answer to it, with the note as its note:
   * an API caller gets what the live page gets, with no second call.
   */
  handBack(caller: LiveCaller, runId: string, controlId: string, note: string | null): LiveHandBack {
    const live = this.liveRun(caller, runId);
    if (!live.gate.holds(controlId)) throw new NotInControlError();
    const t = live.gate.release(this.deps.clock.now(), note, false)!;
    this.endControl(controlId, 'completed', `handed back by ${caller.by}`);
    return {
      object: 'live_control_ended',
      run_id: runId,
      started_at: isoTime(t.startedAtMs),
      ended_at: isoTime(t.endedAtMs),
      duration_ms: t.endedAtMs - t.startedAtMs,
      answered_request_id: this.answerTakeover(caller, runId, note),
    };
  }

  /** Control not handed back in time is taken back: the agent goes on, told so, and the waitpoint has expired. */
  private takeBack(live: LiveRun, controlId: string, limitS: number): void {
    if (!live.gate.holds(controlId)) return this.forget(controlId);
    live.gate.release(this.deps.clock.now(), `control was not handed back within human_timeout_s (${limitS} s) and was taken back`, true);
    this.endControl(controlId, 'expired', `not handed back within human_timeout_s (${limitS} s)`);
  }

  /** Ends the waitpoint of a control, however it ended. */
  private endControl(controlId: string, to: 'completed' | 'expired' | 'abandoned', why: string): void {
    const holding = this.holdings.get(controlId);
    if (holding === undefined) return;
    this.forget(controlId);
    this.deps.store.transaction((uow) => this.deps.waitpoints.end(uow, holding.waitpointId, to, why));
  }

  private forget(controlId: string): void {
    const holding = this.holdings.get(controlId);
    if (holding === undefined) return;
    clearTimeout(holding.expiry);
    this.holdings.delete(controlId);
  }

  /** Answers the takeover the run waits for, if it waits for one; answers its request id, or null. */
  private answerTakeover(caller: LiveCaller, runId: string, note: string | null): string | null {
    const waiting = waitingForOf(this.deps.runs.row(caller.orgId, runId).waiting_for, caller.orgId, runId, () => null);
    if (waiting === null || waiting.on !== 'person' || waiting.kind !== 'takeover' || waiting.request_id === null) return null;
    try {
      this.deps.human.answer(caller.orgId, runId, { request_id: waiting.request_id, ...(note === null ? {} : { note }) }, caller.answerer);
      return waiting.request_id;
    } catch (error) {
      // It expired, or the run is ending, between the two reads: control is handed back all the same.
      if (error instanceof ConflictError) return null;
      throw error;
    }
  }

  /**
   * "Save this login": a person in control, signed in by hand, saves the browser's state now as a profile (docs/api.md,
   * Profiles). Only whoever holds control may, so that the state saved is the one they made.
   */
  async saveLogin(caller: LiveCaller, runId: string, controlId: string, name: string): Promise<object> {
    const live = this.liveRun(caller, runId);
    if (!live.gate.holds(controlId)) throw new NotInControlError();
    let state: BrowserState;
    try {
      state = await live.sandbox.readLogin(AbortSignal.any([live.ended, AbortSignal.timeout(READ_LOGIN_TIMEOUT_MS)]));
    } catch (error) {
      if (error instanceof SandboxError || live.ended.aborted) throw new LiveViewUnavailableError(runId, `now: its browser's state could not be read (${error instanceof Error ? error.message : String(error)})`);
      throw error;
    }
    return this.deps.logins.save(this.deps.runs.row(caller.orgId, runId), name, state, caller.link === null ? 'api_key' : 'live_link');
  }

  /** What the live page shows besides the frames. */
  state(caller: LiveCaller, runId: string): LiveState {
    const run = this.deps.runs.get(caller.orgId, runId);
    const live = this.deps.live.get(caller.orgId, runId);
    const holder = live?.gate.holder ?? null;
    return {
      object: 'live_state',
      run,
      thought: this.thought(runId),
      control: { held: holder !== null, since: holder === null ? null : isoTime(holder.sinceMs), by: holder?.by ?? null },
      viewers: this.viewers.get(runId)?.size ?? 0,
      profiles: this.deps.logins.targets(this.deps.runs.row(caller.orgId, runId)),
    };
  }

  /**
   * Revokes every live link of the run made so far: their requests are refused from now on, their frame streams
   * end, and control held through one is released. Works whatever the run's status (a no-op once it ended).
   */
  revoke(orgId: string, runId: string): LiveRevocation {
    this.deps.runs.row(orgId, runId);
    this.deps.links.revoke(runId);
    const now = this.deps.clock.now();
    const live = this.deps.live.get(orgId, runId);
    const holder = live === null ? null : [...this.holdings.keys()].find((controlId) => live.gate.holds(controlId)) ?? null;
    const released = live?.gate.release(now, null, true) ?? null;
    if (holder !== null) this.endControl(holder, 'abandoned', "control was revoked with the run's live links");
    this.viewers.get(runId)?.endLinks();
    return { object: 'live_revocation', run_id: runId, revoked_at: isoTime(now), control_released: released !== null };
  }

  private liveRun(caller: LiveCaller, runId: string): LiveRun {
    const run = this.deps.runs.row(caller.orgId, runId);
    const live = this.deps.live.get(caller.orgId, runId);
    if (live !== null) return live;
    if (run.status !== 'running') throw new LiveViewUnavailableError(runId, `: it is ${run.status}, and only a running run has one`);
    // A test-mode run is carried out without a sandbox (issue 25): there is never a browser to show.
    if (!this.deps.orgModes.livemode(caller.orgId)) throw new LiveViewUnavailableError(runId, ': a test-mode run has no sandbox or browser (docs/api.md, Test mode)');
    throw new LiveViewUnavailableError(runId, 'yet: its sandbox is starting');
  }

  private thought(runId: string): string | null {
    const steps = this.deps.steps.forRun(runId);
    for (let i = steps.length - 1; i >= 0; i -= 1) {
      const step = steps[i]!;
      if (step.kind !== 'model') continue;
      const text = (step.output ?? '')
        .split('\n')
        .filter((line) => !line.startsWith('stop_reason: ') && !line.startsWith('tool_use '))
        .join('\n')
        .trim();
      if (text !== '') return text;
    }
    return null;
  }
}

/** Said last on a stream that ends because the attempt did: a viewer knows not to open another. */
const ENDED_EVENT = new TextEncoder().encode('event: ended\ndata: {}\n\n');

/**
 * The upstream stream, ended (not failed) when `until` aborts, and released when its reader goes; its last event is
 * `ended` when the attempt ended (`ended`), rather than the viewer going or giving way.
 */
async function* relay(stream: ReadableStream<Uint8Array>, until: AbortSignal, ended: AbortSignal, leave: () => void): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      yield value;
    }
  } catch (error) {
    if (!until.aborted) throw error;
  } finally {
    leave();
    await reader.cancel().catch(() => undefined);
  }
  if (ended.aborted) yield ENDED_EVENT;
}
