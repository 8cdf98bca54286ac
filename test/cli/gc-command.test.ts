import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isoTime } from '../../src/clock.js';
import { createIdFactory } from '../../src/ids.js';
import { dataPaths } from '../../src/runtime/paths.js';
import { runLifecycle } from '../../src/runs/state-machine.js';
import { openStore } from '../../src/store/store.js';
import { startHangingModel, type HangingModel } from '../fixtures/hanging-model.js';
import { startDaemon, type TestDaemon } from '../fixtures/test-daemon.js';
import { runCli } from './run-cli.js';

const DAY = 24 * 3600 * 1000;

let daemon: TestDaemon;
let model: HangingModel;
const cli = (...args: string[]) => runCli(['--home', daemon.home, ...args]);

beforeAll(async () => {
  model = await startHangingModel();
  daemon = await startDaemon({ env: { ...model.env, ERRAND_LIMITS_MAX_PENDING_RUNS: '1000' } });
});
afterAll(async () => {
  await daemon?.cleanup();
  await model?.close();
});

/** Finished runs made `daysAgo` days ago, written straight into the daemon's database as history. */
function oldRuns(n: number, daysAgo: number): string[] {
  const ids = createIdFactory(() => Date.now() - daysAgo * DAY);
  const at = isoTime(Date.now() - daysAgo * DAY);
  const store = openStore(dataPaths(daemon.home).database);
  try {
    const projectId = store.projects.getDefault(daemon.orgId)!.id;
    return store.transaction((uow) =>
      Array.from({ length: n }, () => {
        const id = ids('run');
        store.runs.insert(uow, {
          id, org_id: daemon.orgId, key_id: null, project_id: projectId, job_id: null, name: null, source: 'api', prompt: 'p', inputs: '{}',
          model: 'haiku', output_schema: null, callback_url: null, connections: '[]', timeout_s: 60, recording: 1, status: 'queued', created_at: at, updated_at: at,
        });
        store.runs.setStatus(uow, id, runLifecycle.move('queued', 'running'), {});
        store.runs.setStatus(uow, id, runLifecycle.move('running', 'succeeded'), { finished_at: at });
        return id;
      }),
    );
  } finally {
    store.close();
  }
}

describe('errand gc', () => {
  it('prints with --dry-run what would go and purges nothing', async () => {
    const old = oldRuns(5, 40);
    const dry = await cli('gc', '--dry-run', '--json');
    expect(dry.code).toBe(0);
    const body = dry.json();
    expect(body).toMatchObject({ dry_run: true, purged: null, vacuumed: false });
    expect(body.plan.find((p: { kind: string }) => p.kind === 'runs')).toMatchObject({ table: 'runs', keep_hours: 720, rows: 5 });
    expect((await daemon.api('GET', `/v1/runs/${old[0]}`)).status).toBe(200);

    const human = await cli('gc', '--dry-run');
    expect(human.stdout.split('\n')[0]).toMatch(/^KIND\s+KEPT\s+OLDER THAN\s+WOULD GO\s+FILE BYTES$/);
    expect(human.stdout).toMatch(/^runs\s+30 days\s+\S+\s+5\s+0$/m);
    // One of a unit is singular (issue 21, item 15: it said "1 days").
    expect(human.stdout).toMatch(/^idempotency_keys\s+1 day\s/m);
    expect(human.stderr).toContain('dry run: nothing was purged');
  });

  it('purges old runs beside a burst of POST /v1/runs: every new run is kept, and a purged run answers 404 like an unknown id', async () => {
    const old = oldRuns(600, 31);
    // The daemon has the first one in its row cache: the purge by another process must still reach it.
    expect((await daemon.api('GET', `/v1/runs/${old[0]}`)).status).toBe(200);

    const created: string[] = [];
    let purging = true;
    const burst = (async () => {
      while (purging || created.length < 20) {
        const res = await daemon.api('POST', '/v1/runs', { prompt: `burst ${created.length}` });
        expect(res.status).toBe(202);
        created.push(res.body.task_id);
      }
    })();
    const purge = await cli('gc', '--json');
    purging = false;
    await burst;

    expect(purge.code).toBe(0);
    expect(purge.json().purged.find((p: { kind: string }) => p.kind === 'runs').rows).toBeGreaterThanOrEqual(600);
    for (const id of created) expect((await daemon.api('GET', `/v1/runs/${id}`)).status).toBe(200);
    for (const id of [old[0]!, old[299]!, old[599]!]) {
      const res = await daemon.api('GET', `/v1/runs/${id}`);
      expect(res.status).toBe(404);
      expect(res.body.error).toMatchObject({ code: 'resource_missing' });
    }
    const unknown = await daemon.api('GET', `/v1/runs/${createIdFactory()('run')}`);
    expect({ ...unknown.body.error, message: undefined, param: undefined }).toEqual({ ...(await daemon.api('GET', `/v1/runs/${old[1]}`)).body.error, message: undefined, param: undefined });
  });

  it('refuses --vacuum while the daemon runs', async () => {
    const res = await cli('gc', '--vacuum');
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/stop the daemon first/);
  });
});
