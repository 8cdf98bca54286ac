import { isoTime } from '../clock.js';
import { ConflictError, InvalidRequestError } from '../errors.js';
import type { EventAnnouncer } from '../event-log/event-announcer.js';
import type { Resources } from '../resources.js';
import type { RunEnvelope } from '../runs/envelope.js';
import { failedOutcome, type FailedOutcome } from '../runs/run-outcome.js';
import type { TransitionHook } from '../runs/run-change.js';
import type { RunsService } from '../runs/runs-service.js';
import { runMoves } from '../runs/state-machine.js';
import type { AnswerChannel, HumanKind, HumanObstacle, HumanRequestRow } from '../store/human-requests-store.js';
import type { RunRow } from '../store/runs-table.js';
import type { FailureReason } from '../vocabulary/run-outcomes.js';
import { isTerminal } from '../vocabulary/run-status.js';
import type { HumanAnswerBody } from './human-schemas.js';
import type { HumanNotifier } from './human-notifier.js';
import type { LiveUrlOf, StoredWaitingFor } from './waiting-for.js';

/** How often a waiting agent looks for an answer besides being told: a row read by its key. */
const LOOK_EVERY_MS = 1000;

/** What the agent asks (the request_human tool's input). */
export interface HumanAsk {
  kind: HumanKind;
  question: string;
  obstacle: HumanObstacle | null;
}

/** Who answered, and through what. */
export interface Answerer {
  by: string;
  via: AnswerChannel;
}

/** How a wait ended, for the tool: the answer, or nobody within human_timeout_s (the run then fails with `outcome`). */
export type HumanReply = { kind: 'answered'; request: HumanRequestRow } | { kind: 'expired'; request: HumanRequestRow; outcome: FailedOutcome };

export interface HumanRequestsOptions {
  runs: RunsService;
  announcer: EventAnnouncer;
  publicUrl: () => string;
  /** The live part's link to a run's live view (contracts.md, item 2); none by default. */
  liveUrlOf: LiveUrlOf;
  /** Emails the run's `human_email` (refused, and logged, when the installation or organisation sends no mail). */
  notifier: HumanNotifier;
}

/**
 * A run's agent asking for a person, and the person's answer (issue 22, item 4). Asking pauses the run (it stays
 * `running`, `waiting_for` names the request), announces `run.needs_human` (stream and the run's callback_url) and
 * emails `human_email`; the agent's tool call then waits, costing no model call, until an answer resumes the run
 * (`run.human_answered`), the request expires (the run fails), or the run stops (cancel, shutdown).
 */
export class HumanRequests {
  constructor(
    private readonly r: Resources,
    private readonly o: HumanRequestsOptions,
  ) {
    // The person replied to the notification email: its reply answers the request it was sent for.
    r.events.on('wake.email_replied', (reply) => this.answerByEmail(reply.orgId, reply.emailId, reply.receivedId));
  }

  /** Closes the open requests of a run that leaves `running` (ends, or is re-queued after its daemon died). */
  readonly endHook: TransitionHook = (change, uow) => {
    if (change.from === 'running' && change.to !== 'running') this.r.store.humanRequests.endRun(uow, change.run.id);
  };

  /**
   * Asks for a person and waits for the answer, or for the request to expire; throws the signal's reason when the
   * run stops meanwhile. Throws a ConflictError when the run is no longer running or waits already.
   */
  async ask(run: RunRow, ask: HumanAsk, signal: AbortSignal): Promise<HumanReply> {
    signal.throwIfAborted();
    const { store, clock, ids, config } = this.r;
    const timeoutS = run.human_timeout_s ?? config['human.timeout_s'];
    const now = clock.now();
    const request = { id: ids('hr'), org_id: run.org_id, run_id: run.id, attempt: run.attempt, kind: ask.kind, question: ask.question, obstacle: ask.obstacle, asked_at: isoTime(now), expires_at: isoTime(now + timeoutS * 1000) };
    const waitingFor: StoredWaitingFor = { request_id: request.id, kind: request.kind, question: request.question, asked_at: request.asked_at, expires_at: request.expires_at };
    const liveUrl = this.o.liveUrlOf(run.org_id, run.id);
    const answerUrl = `${this.o.publicUrl()}/v1/runs/${run.id}/human`;
    // Listening before the commit: an answer can arrive as soon as the request exists.
    let wake = () => {};
    const unsubscribe = this.r.events.on('wake.human_answered', (event) => {
      if (event.requestId === request.id) wake();
    });
    try {
      store.transaction((uow) => {
        store.humanRequests.insert(uow, request);
        const paused = this.o.runs.apply(uow, runMoves.pause({ runId: run.id, waitingFor: JSON.stringify(waitingFor), leaseOwner: run.lease_owner }));
        if (paused === null) throw new ConflictError('not_running', `Run ${run.id} is no longer running, or waits for a person already`);
        this.o.announcer.announce(uow, {
          type: 'run.needs_human',
          orgId: run.org_id,
          runId: run.id,
          callbackUrl: run.callback_url,
          data: { run_id: run.id, request_id: request.id, kind: request.kind, question: request.question, asked_at: request.asked_at, expires_at: request.expires_at, live_url: liveUrl, answer_url: answerUrl },
        });
      });
      if (run.human_email !== null) void this.notify(run, request.id, { ...waitingFor, live_url: liveUrl }, answerUrl, run.human_email);
      return await new Promise<HumanReply>((resolve, reject) => {
        let timer: NodeJS.Timeout | undefined;
        // An answer committed by another process on the same data directory tells this one's bus nothing.
        const poll = setInterval(() => look(), LOOK_EVERY_MS);
        const stopped = () => {
          clearTimeout(timer);
          clearInterval(poll);
          reject(signal.reason);
        };
        const settle = (reply: HumanReply) => {
          clearTimeout(timer);
          clearInterval(poll);
          signal.removeEventListener('abort', stopped);
          resolve(reply);
        };
        const look = () => {
          const row = store.humanRequests.get(request.id);
          if (row?.status === 'answered') settle({ kind: 'answered', request: row });
        };
        const expire = () => {
          // An answer committed just before the timer fired wins.
          if (!store.transaction((uow) => store.humanRequests.expire(uow, request.id))) return look();
          settle({ kind: 'expired', request: store.humanRequests.get(request.id)!, outcome: expiryOutcome(request, timeoutS) });
        };
        wake = look;
        timer = setTimeout(expire, Math.max(0, Date.parse(request.expires_at) - clock.now()));
        signal.addEventListener('abort', stopped, { once: true });
        look();
      });
    } finally {
      unsubscribe();
    }
  }

  /**
   * POST /v1/runs/{id}/human (and the CLI, the MCP tool, the live page): answers what the run waits for and resumes
   * it. 409 not_waiting when it waits for nothing, 409 request_mismatch when `request_id` names another request,
   * 400 when the kind's member is missing or another kind's is given.
   */
  answer(orgId: string, runId: string, body: HumanAnswerBody, who: Answerer): RunEnvelope {
    const run = this.o.runs.row(orgId, runId);
    if (run.status !== 'running' || run.waiting_for === null) {
      const state = isTerminal(run.status) ? `ended as ${run.status}` : run.status === 'queued' ? 'is queued' : 'is running and waits for nobody';
      throw new ConflictError('not_waiting', `Run ${runId} waits for no person: it ${state}`);
    }
    const waiting = JSON.parse(run.waiting_for) as StoredWaitingFor;
    if (body.request_id !== undefined && body.request_id !== waiting.request_id) {
      throw new ConflictError('request_mismatch', `Run ${runId} waits for request ${waiting.request_id}, not ${body.request_id}`, { param: 'request_id' });
    }
    checkFields(waiting.kind, body);
    const at = isoTime(this.r.clock.now());
    const answer = {
      answer: body.answer ?? null,
      approved: body.approved === undefined ? null : body.approved ? 1 : 0,
      note: body.note ?? null,
      answered_by: who.by,
      answered_via: who.via,
      answered_at: at,
    };
    const resumed = this.r.store.transaction((uow) => {
      if (!this.r.store.humanRequests.answer(uow, waiting.request_id, answer)) {
        throw new ConflictError('not_waiting', `Request ${waiting.request_id} of run ${runId} no longer waits (it expired, or the run is ending)`);
      }
      const after = this.o.runs.apply(uow, runMoves.resume({ runId, leaseOwner: null }));
      if (after === null) throw new ConflictError('not_waiting', `Run ${runId} no longer waits for a person`);
      this.o.announcer.announce(uow, {
        type: 'run.human_answered',
        orgId,
        runId,
        callbackUrl: run.callback_url,
        data: {
          run_id: runId,
          request_id: waiting.request_id,
          kind: waiting.kind,
          answer: answer.answer,
          approved: body.approved ?? null,
          note: answer.note,
          answered_by: who.by,
          answered_via: who.via,
          answered_at: at,
        },
      });
      uow.afterCommit(() => this.r.events.emit('wake.human_answered', { requestId: waiting.request_id, runId }));
      return after;
    });
    return this.o.runs.envelope(resumed);
  }

  /** Whether a person approved a request of the run's current attempt (require_approval). */
  hasApproval(run: RunRow): boolean {
    return this.r.store.humanRequests.hasApproval(run.id, run.attempt);
  }

  /**
   * A reply to a request's notification email answers it, when the request still waits: an answer's text is the
   * answer; an approval's first word says yes (yes, approve, approved, ok) or no (no, deny, denied, reject); a
   * takeover's text is the note of what the person did. A reply that says neither yes nor no answers nothing.
   */
  private answerByEmail(orgId: string, emailId: string, receivedId: string): void {
    const request = this.r.store.humanRequests.byEmail(emailId);
    if (request === undefined || request.org_id !== orgId || request.status !== 'waiting') return;
    const received = this.r.store.receivedEmails.get(orgId, receivedId);
    if (received === undefined) return;
    const text = received.reply_text.trim();
    const body = replyAnswer(request.kind, text);
    const logger = this.r.logger.child({ runId: request.run_id, requestId: request.id });
    if (body === null) {
      logger.info({ from: received.from_address }, 'a reply to a request for a person said neither yes nor no; it answers nothing');
      return;
    }
    try {
      this.answer(orgId, request.run_id, { request_id: request.id, ...body }, { by: `email ${received.from_address}`, via: 'email' });
    } catch (err) {
      logger.info({ err }, 'a reply to a request for a person came too late');
    }
  }

  private async notify(run: RunRow, requestId: string, waiting: StoredWaitingFor & { live_url: string | null }, answerUrl: string, to: string): Promise<void> {
    try {
      const emailId = await this.o.notifier.send(run, waiting, answerUrl, to);
      this.r.store.humanRequests.setEmail(requestId, emailId);
    } catch (err) {
      this.r.logger.warn({ err, runId: run.id }, `could not email ${to} that the run waits for a person`);
    }
  }
}

/**
 * How the run fails when nobody answered: a takeover for a captcha is `captcha`, for a login `auth_required` (the
 * agent names its obstacle; without one, a question that mentions a captcha is one, anything else a login), for
 * something else `timeout`; an answer or an approval nobody gave is `timeout`.
 */
function expiryOutcome(request: Pick<HumanRequestRow, 'kind' | 'question' | 'obstacle'>, timeoutS: number): FailedOutcome {
  const detail =
    `nobody answered the agent's request for a person (${request.kind}: ${JSON.stringify(request.question)}) within human_timeout_s of ${timeoutS} s; ` +
    'the run stopped waiting and failed';
  return failedOutcome(expiryReason(request), detail);
}

function expiryReason(request: Pick<HumanRequestRow, 'kind' | 'question' | 'obstacle'>): FailureReason {
  if (request.kind !== 'takeover') return 'timeout';
  const obstacle = request.obstacle ?? (/captcha/i.test(request.question) ? 'captcha' : 'login');
  switch (obstacle) {
    case 'captcha':
      return 'captcha';
    case 'login':
      return 'auth_required';
    case 'other':
      return 'timeout';
    default: {
      const never: never = obstacle;
      throw new Error(`unknown obstacle ${String(never)}`);
    }
  }
}

/** No member that belongs to another kind, and the member the kind needs. */
function checkFields(kind: HumanKind, body: HumanAnswerBody): void {
  const needs = kind === 'answer' ? 'answer' : kind === 'approve' ? 'approved' : null;
  for (const member of ['answer', 'approved'] as const) {
    if (member !== needs && body[member] !== undefined) {
      throw new InvalidRequestError('invalid_answer', `The run waits for ${kind === 'takeover' ? 'a takeover, which takes only `note`' : `${kind === 'answer' ? 'an answer' : 'an approval'}, not \`${member}\``}`, { param: member });
    }
  }
  if (needs !== null && body[needs] === undefined) {
    throw new InvalidRequestError('missing_parameter', `The run waits for ${kind === 'answer' ? 'an answer: give `answer`' : 'an approval: give `approved` (true or false)'}`, { param: needs });
  }
}

const YES = /^(yes|y|approve|approved|ok|okay)\b/i;
const NO = /^(no|n|deny|denied|reject|rejected)\b/i;

function replyAnswer(kind: HumanKind, text: string): Pick<HumanAnswerBody, 'answer' | 'approved' | 'note'> | null {
  switch (kind) {
    case 'answer':
      return text === '' ? null : { answer: text.slice(0, 10_000) };
    case 'approve': {
      const approved = YES.test(text) ? true : NO.test(text) ? false : null;
      return approved === null ? null : { approved, note: text.slice(0, 10_000) };
    }
    case 'takeover':
      return { note: text === '' ? 'done (replied by email)' : text.slice(0, 10_000) };
    default: {
      const never: never = kind;
      throw new Error(`unknown kind ${String(never)}`);
    }
  }
}
