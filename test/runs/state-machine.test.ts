import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EventLog } from '../../src/event-log/event-log.js';
import { IllegalTransitionError } from '../../src/lifecycle.js';
import { OrgsService } from '../../src/orgs/orgs-service.js';
import type { Resources } from '../../src/resources.js';
import { failedOutcome } from '../../src/runs/run-outcome.js';
import type { RunsService } from '../../src/runs/runs-service.js';
import { RUN_TRANSITIONS, runLifecycle, runMoves, type RunMove, type RunMoveName } from '../../src/runs/state-machine.js';
import type { RunRow } from '../../src/store/runs-table.js';
import { isTerminal, TERMINAL_STATUSES, type RunStatus } from '../../src/vocabulary/run-status.js';
import { inProcessRuns } from '../fixtures/in-process-runs.js';
import { tempDir } from '../fixtures/temp-dir.js';

const STATUSES: RunStatus[] = ['queued', 'running', 'succeeded', 'failed', 'cancelled'];

/** The transitions of API-DECISIONS.md, and no others. */
const DECIDED = new Set([
  'queued>running',
  'running>succeeded',
  'running>failed',
  'queued>cancelled',
  'running>cancelled',
  'running>queued',
]);

describe('the run state machine', () => {
  it('allows exactly the decided transitions', () => {
    for (const from of STATUSES) {
      for (const to of STATUSES) expect(runLifecycle.canMove(from, to), `${from} -> ${to}`).toBe(DECIDED.has(`${from}>${to}`));
    }
  });

  it('knows every status', () => {
    expect(Object.keys(RUN_TRANSITIONS).sort()).toEqual([...STATUSES].sort());
  });

  it('makes succeeded, failed and cancelled terminal, and nothing else', () => {
    expect(TERMINAL_STATUSES).toEqual(['succeeded', 'failed', 'cancelled']);
    for (const s of STATUSES) expect(isTerminal(s), s).toBe((TERMINAL_STATUSES as readonly RunStatus[]).includes(s));
  });

  it('gives a terminal status no move, and every other status one', () => {
    for (const s of STATUSES) expect(RUN_TRANSITIONS[s].length === 0, s).toBe(isTerminal(s));
  });

  it('names both ends of an illegal transition', () => {
    const err = new IllegalTransitionError('run', 'succeeded', 'running');
    expect(err.message).toContain('succeeded');
    expect(err.message).toContain('running');
    expect(err).toMatchObject({ from: 'succeeded', to: 'running' });
  });
});

/** Where a run can stand: its status, and for a running run whether it waits for someone. */
type Stand = RunStatus | 'running, waiting';
const STANDS: Stand[] = ['queued', 'running', 'running, waiting', 'succeeded', 'failed', 'cancelled'];

/** Where each named move applies, and where it leaves the run (issue 20; pause and resume for issue 22). */
const MOVES: Record<RunMoveName, { from: Stand[]; to: Stand }> = {
  claim: { from: ['queued'], to: 'running' },
  requeue: { from: ['running', 'running, waiting'], to: 'queued' },
  finish: { from: ['running', 'running, waiting'], to: 'succeeded' },
  fail: { from: ['running', 'running, waiting'], to: 'failed' },
  cancel: { from: ['queued', 'running', 'running, waiting'], to: 'cancelled' },
  pause: { from: ['running'], to: 'running, waiting' },
  resume: { from: ['running, waiting'], to: 'running' },
};

const WORKER = 'worker-1';

describe('RunsService.apply', () => {
  let dir: ReturnType<typeof tempDir>;
  let r: Resources;
  let runs: RunsService;
  let eventLog: EventLog;
  let orgId: string;
  let announced: { runId: string; from: RunStatus | null; to: RunStatus }[];

  beforeEach(() => {
    dir = tempDir('errand-run-moves-');
    ({ r, runs, eventLog } = inProcessRuns(dir.path));
    orgId = new OrgsService(r).create('moves').id;
    announced = [];
    r.events.on('wake.run_transitioned', (e) => announced.push(e));
  });
  afterEach(() => {
    r.store.close();
    dir.remove();
  });

  /** A run standing at `stand`, leased to WORKER when it is running. */
  function put(stand: Stand): string {
    const id = r.ids('run');
    const at = new Date().toISOString();
    const status: RunStatus = stand === 'running, waiting' ? 'running' : stand;
    r.store.transaction((uow) =>
      r.store.runs.insert(uow, {
        id, org_id: orgId, key_id: null, project_id: r.store.projects.getDefault(orgId)!.id, job_id: null, name: null, source: 'api',
        prompt: 'p', inputs: '{}', model: 'sonnet', output_schema: null, callback_url: null, connections: '[]', timeout_s: 60, recording: 1, status,
        attempt: status === 'queued' ? 0 : 1, lease_owner: status === 'running' ? WORKER : null, waiting_for: stand === 'running, waiting' ? 'a person' : null,
        created_at: at, updated_at: at,
      }),
    );
    return id;
  }

  function moveOf(name: RunMoveName, runId: string, stand: Stand): RunMove {
    const nowMs = Date.now();
    switch (name) {
      case 'claim':
        return runMoves.claim({ run: { id: runId, org_id: orgId, attempt: 0, started_at: null, sandbox_label: null }, worker: WORKER, nowMs, leaseMs: 60_000 });
      case 'requeue':
        return runMoves.requeue({ run: { id: runId, attempt: 1, lease_owner: WORKER } });
      case 'finish':
        return runMoves.finish({ runId, outcome: { status: 'succeeded', result: { ok: true }, confidence: 'high', evidence: null, warnings: [] }, nowMs, leaseOwner: WORKER });
      case 'fail':
        return runMoves.fail({ runId, outcome: failedOutcome('site_down', 'the site was down'), nowMs, leaseOwner: WORKER });
      case 'cancel':
        return runMoves.cancel({ runId, from: (stand === 'running, waiting' ? 'running' : stand) as 'queued' | 'running', nowMs });
      case 'pause':
        return runMoves.pause({ runId, waitingFor: 'a person to approve the purchase', leaseOwner: null });
      case 'resume':
        return runMoves.resume({ runId, leaseOwner: null });
      default: {
        const never: never = name;
        throw new Error(`unknown move ${String(never)}`);
      }
    }
  }

  const rowOf = (id: string) => r.store.db.prepare('SELECT * FROM runs WHERE id = ?').get(id) as RunRow;
  const standOf = (row: RunRow): Stand => (row.status === 'running' && row.waiting_for !== null ? 'running, waiting' : row.status);
  const statusEvents = (id: string) => eventLog.runEvents(id, 0, 100).filter((e) => e.type === 'run.status');

  it('applies every named move where it starts and nowhere else, and changes nothing where it is refused', () => {
    for (const name of Object.keys(MOVES) as RunMoveName[]) {
      for (const stand of STANDS) {
        const id = put(stand);
        const before = rowOf(id);
        const what = `${name} from ${stand}`;
        if (!MOVES[name].from.includes(stand) && name === 'cancel') {
          // cancel starts from the status it was given: a finished run has no move to cancelled.
          expect(() => moveOf(name, id, stand), what).toThrow(IllegalTransitionError);
          expect(rowOf(id), what).toEqual(before);
          continue;
        }
        const after = r.store.transaction((uow) => runs.apply(uow, moveOf(name, id, stand)));
        if (MOVES[name].from.includes(stand)) {
          expect(after, what).toEqual(rowOf(id));
          expect(standOf(rowOf(id)), what).toBe(MOVES[name].to);
        } else {
          expect(after, what).toBeNull();
          expect(rowOf(id), what).toEqual(before);
        }
      }
    }
  });

  it('logs run.status and wakes with wake.run_transitioned for a status move, and neither for pause or resume', async () => {
    const id = put('running');
    r.store.transaction((uow) => runs.apply(uow, runMoves.pause({ runId: id, waitingFor: 'a person', leaseOwner: WORKER })));
    r.store.transaction((uow) => runs.apply(uow, runMoves.resume({ runId: id, leaseOwner: WORKER })));
    expect(statusEvents(id)).toEqual([]);
    expect(announced).toEqual([]);

    r.store.transaction((uow) => runs.apply(uow, runMoves.cancel({ runId: id, from: 'running', nowMs: Date.now() })));
    expect(statusEvents(id).map((e) => e.data)).toEqual([{ run_id: id, from: 'running', to: 'cancelled', description: 'cancelled by request' }]);
    expect(announced).toEqual([{ runId: id, orgId, from: 'running', to: 'cancelled' }]);
  });

  it('refuses a move that names a worker once another holds the lease', () => {
    const id = put('running');
    const elsewhere = 'worker-2';
    r.store.db.prepare('UPDATE runs SET lease_owner = ? WHERE id = ?').run(elsewhere, id);
    const before = rowOf(id);
    const stale: RunMove[] = [
      runMoves.requeue({ run: { id, attempt: 1, lease_owner: WORKER } }),
      runMoves.fail({ lapsed: { id, attempt: 2, lease_owner: WORKER }, maxAttempts: 2, nowMs: Date.now() }),
      runMoves.finish({ runId: id, outcome: { status: 'succeeded', result: {}, confidence: 'low', evidence: null, warnings: [] }, nowMs: Date.now(), leaseOwner: WORKER }),
      runMoves.pause({ runId: id, waitingFor: 'a person', leaseOwner: WORKER }),
    ];
    for (const move of stale) expect(r.store.transaction((uow) => runs.apply(uow, move)), move.name).toBeNull();
    expect(rowOf(id)).toEqual(before);
    expect(r.store.transaction((uow) => runs.apply(uow, runMoves.pause({ runId: id, waitingFor: 'a person', leaseOwner: elsewhere })))).toMatchObject({ waiting_for: 'a person' });
  });

  it('writes what each move says: the lease on claim, the next attempt on requeue, the outcome and released lease on finish and fail', () => {
    const nowMs = Date.parse('2026-06-01T12:00:00.000Z');
    const queued = put('queued');
    const claimed = r.store.transaction((uow) => runs.apply(uow, runMoves.claim({ run: { id: queued, org_id: orgId, attempt: 0, started_at: null, sandbox_label: null }, worker: WORKER, nowMs, leaseMs: 30_000 })));
    expect(claimed).toMatchObject({ status: 'running', attempt: 1, lease_owner: WORKER, lease_expires_at: nowMs + 30_000, started_at: '2026-06-01T12:00:00.000Z', last_action: 'claimed by a worker' });
    expect(statusEvents(queued).at(-1)?.data).toMatchObject({ description: `claimed by worker ${WORKER} (attempt 1)` });

    const requeued = r.store.transaction((uow) => runs.apply(uow, runMoves.requeue({ run: claimed! })));
    expect(requeued).toMatchObject({ status: 'queued', attempt: 2, lease_owner: null, lease_expires_at: null, waiting_for: null });

    const waiting = put('running, waiting');
    const failed = r.store.transaction((uow) => runs.apply(uow, runMoves.fail({ lapsed: rowOf(waiting), maxAttempts: 1, nowMs })));
    expect(failed).toMatchObject({
      status: 'failed', failure_reason: 'timeout', lease_owner: null, waiting_for: null, finished_at: '2026-06-01T12:00:00.000Z', last_action: 'failed: timeout',
      failure_detail: 'the daemon running this run stopped during attempt 1, the last one allowed (limits.max_attempts is 1); it was not retried again',
    });
    expect(statusEvents(waiting).at(-1)?.data).toMatchObject({ description: `lease of worker ${WORKER} lapsed on the last attempt; failed` });

    const running = put('running');
    const finished = r.store.transaction((uow) =>
      runs.apply(uow, runMoves.finish({ runId: running, outcome: { status: 'succeeded', result: { price: 3 }, confidence: 'medium', evidence: null, warnings: ['w'] }, nowMs, leaseOwner: WORKER })),
    );
    expect(finished).toMatchObject({ status: 'succeeded', result: '{"price":3}', confidence: 'medium', warnings: '["w"]', failure_reason: null, lease_owner: null, last_action: 'finished' });
    expect(statusEvents(running).at(-1)?.data).toMatchObject({ description: 'the agent finished with a result' });
  });

  it("says how a succeeded run got its result: the agent, a replay of its job's recipe, or the agent after a replay", () => {
    const outcome = { status: 'succeeded' as const, result: { price: 3 }, confidence: 'medium' as const, evidence: null, warnings: [] };
    const described = (mode: 'agent' | 'replay' | 'replay_then_agent') => {
      const id = put('running');
      r.store.transaction((uow) => runs.apply(uow, runMoves.finish({ runId: id, outcome: { ...outcome, mode }, nowMs: Date.now(), leaseOwner: WORKER })));
      return (statusEvents(id).at(-1)?.data as { description?: string } | undefined)?.description;
    };
    expect(described('agent')).toBe('the agent finished with a result');
    expect(described('replay')).toBe("replayed from the job's recipe, with no model call");
    expect(described('replay_then_agent')).toBe("the agent finished with a result, having taken over the replay of the job's recipe where the page changed");
  });
});
