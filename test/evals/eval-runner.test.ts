/**
 * The eval runner (src/evals/eval-runner.ts) over the real runs service and store, without an engine: runs stay
 * queued until the test ends them (a cancel), so that what the runner does at each end can be watched.
 */
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LinkSigner } from '../../src/artifacts/link-signer.js';
import { EvalReportPage } from '../../src/evals/eval-report.js';
import { EvalRunner } from '../../src/evals/eval-runner.js';
import { EvalsService } from '../../src/evals/evals-service.js';
import { KeysService, type Principal } from '../../src/keys/keys-service.js';
import { OrgsService } from '../../src/orgs/orgs-service.js';
import { UserSchemas } from '../../src/runs/user-schemas.js';
import { inProcessRuns, type InProcessRuns } from '../fixtures/in-process-runs.js';
import { tempDir } from '../fixtures/temp-dir.js';
import { until } from '../engine/harness.js';

const CASES = [
  { name: 'first', inputs: { a: 1, b: 1 }, expect: { members: { sum: { equals: 2 } } } },
  { name: 'second', inputs: { a: 2, b: 2 }, expect: { members: { sum: { equals: 4 } } } },
];

describe('EvalRunner', () => {
  let dir: ReturnType<typeof tempDir>;
  let d: InProcessRuns;
  let schemas: UserSchemas;
  let keys: KeysService;
  let principal: Principal;
  let evals: EvalsService;
  let jobId: string;
  const runners: EvalRunner[] = [];
  const logLines: string[] = [];

  function setUp(env: Record<string, string> = {}): void {
    dir = tempDir('errand-eval-runner-');
    d = inProcessRuns(dir.path, env);
    d.r.logger = pino({ level: 'info' }, new Writable({ write: (chunk, _enc, done) => (logLines.push(String(chunk)), done()) }));
    schemas = new UserSchemas({ budgetMs: 5_000 });
    keys = new KeysService(d.r);
    const org = new OrgsService(d.r).create('evals');
    const key = keys.create({ orgId: org.id });
    principal = { keyId: key.id, orgId: org.id, monthlyCapUsd: null, maxRunCostUsd: null };
    evals = new EvalsService(d.r, {
      jobs: d.jobs,
      schemas,
      announcer: d.announcer,
      signer: new LinkSigner(randomBytes(32)),
      publicUrl: () => 'http://127.0.0.1:1',
      checkCallbackUrl: async () => undefined,
      checkSandboxLabel: () => undefined,
      cancelRun: (orgId, runId) => d.runs.cancel(orgId, runId),
      report: new EvalReportPage(),
    });
  }

  async function makeJob(): Promise<void> {
    const project = d.r.store.projects.getDefault(principal.orgId)!.id;
    jobId = (await d.jobs.create(principal.orgId, { project_id: project, name: 'adding', prompt: 'Add {{a}} and {{b}}.' })).id;
  }

  function runner(): EvalRunner {
    const made = new EvalRunner(d.r, { runs: d.runs, principalById: (id) => keys.principalById(id), evals, schemas });
    evals.onCreated(() => made.wake());
    runners.push(made);
    return made;
  }

  const casesOf = (evalId: string) => evals.get(principal.orgId, evalId).cases;

  afterEach(async () => {
    for (const r of runners.splice(0)) await r.close();
    await schemas.close();
    d.r.store.close();
    dir.remove();
    logLines.length = 0;
  });

  describe('with the organisation at limits.max_pending_runs', () => {
    beforeEach(() => setUp({ ERRAND_LIMITS_MAX_PENDING_RUNS: '1' }));

    it('waits, and starts the case once a run of the organisation ends, rather than failing it', async () => {
      await makeJob();
      const blocking = (await d.runs.create(principal, { prompt: 'Hold the only place' })).body.task_id;
      runner().start();
      const e = (await evals.create(principal, jobId, { cases: CASES.slice(0, 1) })).eval;
      await until('the eval to wait for the pending runs', () => logLines.some((l) => l.includes('an eval waits')));
      expect(casesOf(e.id)[0]).toMatchObject({ status: 'pending', run_id: null, error: null });
      d.runs.cancel(principal.orgId, blocking);
      await until("the case's run to be made", () => casesOf(e.id)[0]!.run_id);
      expect(casesOf(e.id)[0]!.status).toBe('running');
    });
  });

  describe('with room for runs', () => {
    beforeEach(() => setUp());

    it("ends the remaining cases in error once the eval's key is revoked, and completes the eval", async () => {
      await makeJob();
      runner().start();
      const e = (await evals.create(principal, jobId, { cases: CASES, max_parallel: 1 })).eval;
      const first = await until('the first case to run', () => casesOf(e.id)[0]!.run_id);
      keys.revoke(principal.keyId);
      d.runs.cancel(principal.orgId, first);
      await until('the eval to complete', () => evals.get(principal.orgId, e.id).status === 'completed');
      const [a, b] = casesOf(e.id);
      expect(a).toMatchObject({ status: 'failed', run_status: 'cancelled' });
      expect(b).toMatchObject({ status: 'error', run_id: null });
      expect(b!.error).toContain(`the API key the eval was made under (${principal.keyId}) is revoked`);
    });

    it('carries on after a restart: grades the runs that ended meanwhile, then starts the cases left', async () => {
      await makeJob();
      const before = runner();
      before.start();
      const e = (await evals.create(principal, jobId, { cases: CASES, max_parallel: 1 })).eval;
      const first = await until('the first case to run', () => casesOf(e.id)[0]!.run_id);
      await before.close();
      d.runs.cancel(principal.orgId, first);
      expect(casesOf(e.id).map((c) => c.status)).toEqual(['running', 'pending']);

      runner().start();
      await until('the second case to run', () => casesOf(e.id)[1]!.run_id);
      expect(casesOf(e.id)[0]).toMatchObject({ status: 'failed', run_status: 'cancelled' });
      expect(evals.get(principal.orgId, e.id).status).toBe('running');
    });
  });
});
