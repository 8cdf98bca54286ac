import { isoTime } from '../clock.js';
import { ConflictError, InvalidRequestError } from '../errors.js';
import type { EventAnnouncer } from '../event-log/event-announcer.js';
import type { Resources } from '../resources.js';
import type { RunEnvelope } from '../runs/envelope.js';
import { failedOutcome, type FailedOutcome } from '../runs/run-outcome.js';
import type { TransitionHook } from '../runs/run-change.js';
import type { RunsService } from '../runs/runs-service.js';
import type { HumanRequestRow, NewHumanRequestRow } from '../store/human-requests-store.js';
import type { AnswerChannel, HumanKind, HumanObstacle } from '../vocabulary/waits.js';
import type { RunRow } from '../store/runs-table.js';
import type { FailureReason } from '../vocabulary/run-outcomes.js';
import { storedVerdicts } from '../mail/inbound/auth-verdicts.js';
import { isTerminal } from '../vocabulary/run-status.js';
import type { HumanAnswerBody } from './human-schemas.js';
import type { AskedOfPerson, HumanNotifier } from './human-notifier.js';
import { emailAnswerer } from './email-answerer.js';
import type { LiveUrlOf, PersonWait, StoredWaitingFor } from '../runs/waiting-for.js';
import type { WaitContext, Waitpoints } from '../waitpoints/waitpoints.js';
import { humanRequestLifecycle } from './human-request-lifecycle.js';

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
export type HumanReply =
  /** `reused`: a person answered the same question for an earlier attempt of the run, and this is that answer. */
  | { kind: 'answered'; request: HumanRequestRow; reused: boolean }
  | { kind: 'expired'; request: HumanRequestRow; outcome: FailedOutcome };

export interface HumanRequestsOptions {
  runs: RunsService;
  announcer: EventAnnouncer;
  publicUrl: () => string;
  /** The live part's link to a run's live view (contracts.md, item 2); none by default. */
  liveUrlOf: LiveUrlOf;
  /** Emails the run's `human_email` (refused, and logged, when the installation or organisation sends no mail). */
  notifier: HumanNotifier;
  /** Where a request's wait is kept: the run blocks on it until the answer, the expiry or the attempt's end. */
  waitpoints: Waitpoints;
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
    if (r.config['human.trust_unauthenticated_email']) {
      r.logger.warn(
        'human.trust_unauthenticated_email is on: a reply from a run\'s human_email answers its question without DKIM or SPF, so anyone who can send mail can answer as that address',
      );
    }
  }

  /** Closes the open requests of a run that leaves `running` (ends, or is re-queued after its daemon died). */
  readonly endHook: TransitionHook = (change, uow) => {
    if (change.from === 'running' && change.to !== 'running') this.r.store.humanRequests.endRun(uow, change.run.id, humanRequestLifecycle.move('waiting', 'ended'));
  };

  /**
   * Asks for a person and waits for the answer, or for the request to expire; throws the signal's reason when the
   * run stops meanwhile. The question a person answered for an earlier attempt of the run (the daemon stopped in
   * between) is answered at once, with that answer; one that attempt left unanswered is asked again, saying so.
   * Throws a ConflictError when the run is no longer running.
   */
  async ask(run: RunRow, ask: HumanAsk, ctx: WaitContext): Promise<HumanReply> {
    ctx.signal.throwIfAborted();
    const { store, clock, ids, config } = this.r;
    const earlier = store.humanRequests.sameEarlier(run.id, run.attempt, ask.kind, ask.question);
    const answered = earlier.find((r) => r.status === 'answered');
    if (answered !== undefined) return { kind: 'answered', request: this.reuse(run, answered), reused: true };
    const timeoutS = run.human_timeout_s ?? config['human.timeout_s'];
    const now = clock.now();
    const request: NewHumanRequestRow = {
      id: ids('hr'),
      org_id: run.org_id,
      run_id: run.id,
      attempt: run.attempt,
      kind: ask.kind,
      question: ask.question,
      obstacle: ask.obstacle,
      asked_at: isoTime(now),
      expires_at: isoTime(now + timeoutS * 1000),
      asked_again_of: earlier.find((r) => r.status === 'ended')?.id ?? null,
    };
    const shown: PersonWait = { request_id: request.id, kind: request.kind, question: request.question, asked_at: request.asked_at, asked_again_of: request.asked_again_of };
    const liveUrl = this.o.liveUrlOf(run.org_id, run.id);
    const answerUrl = `${this.o.publicUrl()}/v1/runs/${run.id}/human`;
    const waitpoint = store.transaction((uow) => {
      store.humanRequests.insert(uow, request);
      const opened = this.o.waitpoints.open(uow, run, { kind: 'person', timer: 'stopped', expiresAtMs: now + timeoutS * 1000, detail: shown, requestId: request.id, sinceMs: now });
      this.o.announcer.announce(uow, {
        type: 'run.needs_human',
        orgId: run.org_id,
        runId: run.id,
        callbackUrl: run.callback_url,
        data: { run_id: run.id, waitpoint_id: opened.id, ...shown, expires_at: request.expires_at, live_url: liveUrl, answer_url: answerUrl },
      });
      return opened;
    });
    if (run.human_email !== null) void this.notify(run, request.id, { ...shown, expires_at: request.expires_at, live_url: liveUrl }, answerUrl, run.human_email);
    const ended = await this.o.waitpoints.block(waitpoint, ctx, (uow) => store.humanRequests.move(uow, request.id, humanRequestLifecycle.move('waiting', 'expired')));
    const row = store.humanRequests.get(request.id)!;
    switch (ended.status) {
      case 'completed':
        return { kind: 'answered', request: row, reused: false };
      case 'expired':
        return { kind: 'expired', request: row, outcome: expiryOutcome(request, timeoutS) };
      case 'abandoned':
      case 'waiting':
        throw new ConflictError('not_running', `Run ${run.id} no longer waits for request ${request.id}: ${ended.ended_why ?? 'it ended'}`);
      default: {
        const never: never = ended.status;
        throw new Error(`unknown waitpoint status ${String(never)}`);
      }
    }
  }

  /**
   * The answer a person gave an earlier attempt of the run, to the same question, as a request of this attempt: its
   * record (and, for an approval, what require_approval counts), without asking anybody again.
   */
  private reuse(run: RunRow, earlier: HumanRequestRow): HumanRequestRow {
    const { store, clock, ids } = this.r;
    const at = isoTime(clock.now());
    const id = ids('hr');
    store.transaction((uow) => {
      store.humanRequests.insert(uow, { id, org_id: run.org_id, run_id: run.id, attempt: run.attempt, kind: earlier.kind, question: earlier.question, obstacle: earlier.obstacle, asked_at: at, expires_at: at, asked_again_of: earlier.id });
      store.humanRequests.answer(uow, id, humanRequestLifecycle.move('waiting', 'answered'), {
        answer: earlier.answer,
        approved: earlier.approved,
        note: earlier.note,
        answered_by: earlier.answered_by ?? 'a person',
        answered_via: earlier.answered_via ?? 'api',
        answered_at: earlier.answered_at ?? at,
      });
    });
    this.r.logger.info({ runId: run.id, attempt: run.attempt, requestId: id, earlier: earlier.id }, 'the agent asked what a person answered for an earlier attempt; it has that answer');
    return store.humanRequests.get(id)!;
  }

  /**
   * POST /v1/runs/{id}/human (and the CLI, the MCP tool, the live page, an emailed reply): answers the question
   * `request_id` names, when the run still waits for it, and resumes the run. 409 not_waiting when it waits for
   * nothing, 409 request_mismatch when it waits for another question (both say what became of the one named and what
   * the run waits for now), 400 when the kind's member is missing or another kind's is given.
   */
  answer(orgId: string, runId: string, body: HumanAnswerBody, who: Answerer): RunEnvelope {
    const { store } = this.r;
    // Read and written in one transaction: a claim of the run's next attempt, or another answer, comes before or after.
    store.transaction((uow) => {
      const run = this.o.runs.row(orgId, runId);
      const target = this.answerable(run, body.request_id);
      if (target === null) throw this.notThatQuestion(run, personWaitOf(run), body.request_id);
      checkFields(target.kind, body);
      const at = isoTime(this.r.clock.now());
      const answer = {
        answer: body.answer ?? null,
        approved: body.approved === undefined ? null : body.approved ? 1 : 0,
        note: body.note ?? null,
        answered_by: who.by,
        answered_via: who.via,
        answered_at: at,
      };
      if (!store.humanRequests.answer(uow, target.id, humanRequestLifecycle.move(target.status, 'answered'), answer)) {
        throw new ConflictError('not_waiting', `Request ${target.id} of run ${runId} no longer waits (it expired, or the run is ending)`);
      }
      // A request still waited for ends its waitpoint, which resumes the run; an ended one is told to a later attempt.
      const waitpoint = target.status === 'waiting' ? store.waitpoints.ofRequest(target.id) : undefined;
      if (waitpoint !== undefined && !this.o.waitpoints.end(uow, waitpoint.id, 'completed', `answered by ${who.by} via ${who.via}`)) {
        throw new ConflictError('not_waiting', `Run ${runId} no longer waits for request ${target.id}`);
      }
      this.o.announcer.announce(uow, {
        type: 'run.human_answered',
        orgId,
        runId,
        callbackUrl: run.callback_url,
        data: {
          run_id: runId,
          request_id: target.id,
          kind: target.kind,
          answer: answer.answer,
          approved: body.approved ?? null,
          note: answer.note,
          answered_by: who.by,
          answered_via: who.via,
          answered_at: at,
        },
      });
    });
    return this.o.runs.get(orgId, runId);
  }

  /**
   * The request an answer to `requestId` goes to: that request while it waits; for one whose attempt ended before
   * anybody answered, the request a later attempt asks it again with, while that waits, else the ended request
   * itself, whose answer the run's later attempt is told. Null when none takes an answer (answered already, expired,
   * another run's, or the run ended).
   */
  private answerable(run: RunRow, requestId: string): HumanRequestRow | null {
    let request = this.r.store.humanRequests.get(requestId);
    if (request === undefined || request.run_id !== run.id || isTerminal(run.status)) return null;
    while (request.status === 'ended') {
      const again = this.r.store.humanRequests.askedAgain(request.id);
      // Nobody asked it again (yet): the answer is kept, and the run's next or current attempt is told it, when it
      // starts or before its next model call (human-participant.ts), and gets it when it asks the same.
      if (again === undefined) return request;
      request = again;
    }
    return request.status === 'waiting' ? request : null;
  }

  /** Why an answer to `requestId` is not applied: what became of that request, and what the run waits for now. */
  private notThatQuestion(run: RunRow, waiting: PersonWait | null, requestId: string): ConflictError {
    const named = this.r.store.humanRequests.get(requestId);
    const became = named === undefined || named.run_id !== run.id ? `${requestId} is not a question of this run` : `${requestId} ${fateOf(named)}`;
    if (waiting === null) {
      const state = isTerminal(run.status) ? `ended as ${run.status}` : run.status === 'queued' ? 'is queued' : 'is running and waits for nobody';
      return new ConflictError('not_waiting', `Run ${run.id} waits for no person: it ${state}; ${became}`);
    }
    return new ConflictError(
      'request_mismatch',
      `Run ${run.id} now waits for another question, ${waiting.request_id} (${waiting.kind}): ${quoted(waiting.question)}; ${became}. ` +
        `The answer was not applied: read that question and answer it with request_id ${waiting.request_id} if you mean to`,
      { param: 'request_id' },
    );
  }

  /** Whether a person approved a request of the run's current attempt (require_approval). */
  hasApproval(run: RunRow): boolean {
    return this.r.store.humanRequests.hasApproval(run.id, run.attempt);
  }

  /**
   * A reply to a request's notification email answers it, when the request still waits and the reply came from the
   * address asked, authenticated (email-answerer.ts): an answer's text is the answer; an approval's first word says
   * yes (yes, approve, approved, ok) or no (no, deny, denied, reject); a takeover's text is the note of what the
   * person did. A reply that says neither yes nor no answers nothing. A refused reply answers nothing either, and is
   * logged for the operator with why (its sender is told nothing).
   */
  private answerByEmail(orgId: string, emailId: string, receivedId: string): void {
    const request = this.r.store.humanRequests.byEmail(emailId);
    if (request === undefined || request.org_id !== orgId || request.status !== 'waiting') return;
    const received = this.r.store.receivedEmails.get(orgId, receivedId);
    if (received === undefined) return;
    const logger = this.r.logger.child({ runId: request.run_id, requestId: request.id, receivedId });
    const asked = this.o.runs.row(orgId, request.run_id).human_email;
    const auth = storedVerdicts(received.auth);
    const answerer = asked === null ? ({ kind: 'refused', reason: 'wrong_address' } as const) : emailAnswerer(asked, received.from_address, auth, this.r.config['human.trust_unauthenticated_email']);
    if (answerer.kind === 'refused') {
      logger.warn({ from: received.from_address, asked, reason: answerer.reason, auth }, REFUSED[answerer.reason]);
      return;
    }
    const body = replyAnswer(request.kind, received.reply_text.trim());
    if (body === null) {
      logger.info({ from: received.from_address }, 'a reply to a request for a person said neither yes nor no; it answers nothing');
      return;
    }
    try {
      this.answer(orgId, request.run_id, { request_id: request.id, ...body }, { by: answerer.by, via: 'email' });
    } catch (err) {
      logger.info({ err }, 'a reply to a request for a person came too late');
    }
  }

  private async notify(run: RunRow, requestId: string, waiting: AskedOfPerson, answerUrl: string, to: string): Promise<void> {
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

/** What became of a request that no longer waits, or that waits (then another is not what the run waits for). */
function fateOf(request: HumanRequestRow): string {
  switch (request.status) {
    case 'waiting':
      return 'still waits';
    case 'answered':
      return `was answered already (at ${request.answered_at}, via ${request.answered_via})`;
    case 'expired':
      return `expired at ${request.expires_at}, unanswered`;
    case 'ended':
      return 'ended unanswered when its attempt ended';
    default: {
      const never: never = request.status;
      throw new Error(`unknown status ${String(never)}`);
    }
  }
}

/** A question in an error message: quoted, and cut where it is long. */
function quoted(question: string): string {
  return JSON.stringify(question.length > 200 ? `${question.slice(0, 199)}…` : question);
}

/** What the operator reads of a refused reply (the log line also names the sender, the address asked and the verdicts). */
const REFUSED = {
  wrong_address: 'refused a reply to a request for a person: it did not come from the address the question went to (human_email); it answers nothing',
  not_authenticated:
    'refused a reply to a request for a person: its sender is not authenticated (no DKIM signature and no SPF pass of a domain aligned with its From); it answers nothing',
} as const;

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

/** The person's request the run shows it waits for, or null (it waits for nobody, or for something else). */
function personWaitOf(run: RunRow): PersonWait | null {
  if (run.status !== 'running' || run.waiting_for === null) return null;
  const stored = JSON.parse(run.waiting_for) as StoredWaitingFor;
  return stored.on === 'person' && stored.request_id !== undefined && stored.kind !== undefined && stored.question !== undefined && stored.asked_at !== undefined
    ? { request_id: stored.request_id, kind: stored.kind, question: stored.question, asked_at: stored.asked_at, asked_again_of: stored.asked_again_of ?? null }
    : null;
}
