import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIdFactory } from '../../src/ids.js';
import { dataPaths } from '../../src/runtime/paths.js';
import { openStore } from '../../src/store/store.js';
import { deliveryLifecycle } from '../../src/webhooks/delivery-lifecycle.js';
import { startDaemon, type TestDaemon } from '../fixtures/test-daemon.js';
import { startHangingModel, type HangingModel } from '../fixtures/hanging-model.js';
import { runCli } from './run-cli.js';

let daemon: TestDaemon;
let model: HangingModel;
const cli = (...args: string[]) => runCli(['--home', daemon.home, ...args]);

beforeAll(async () => {
  model = await startHangingModel();
  daemon = await startDaemon({ env: model.env });
});
afterAll(async () => {
  await daemon?.cleanup();
  await model?.close();
});

/** Puts deliveries straight into the outbox: one that gave up (410) and one waiting a day for its next attempt. */
function seedDeliveries(): { failed: string; pending: string; runId: string } {
  const store = openStore(dataPaths(daemon.home).database);
  const ids = createIdFactory();
  const webhooks = store.webhooks;
  const now = Date.now();
  const at = new Date(now).toISOString();
  const runId = ids('run');
  const row = (id: string, next: number) => ({
    id,
    event_id: ids('evt'),
    org_id: daemon.orgId,
    run_id: runId,
    event_type: 'run.cancelled',
    // Loopback's discard port: should any worker try it, nothing outside this machine is touched.
    url: 'http://127.0.0.1:9/hook',
    payload: JSON.stringify({ event: 'run.cancelled', data: { task_id: runId } }),
    next_attempt_at: next,
    created_at: at,
  });
  try {
    const failed = ids('whd');
    const pending = ids('whd');
    store.transaction((uow) => {
      webhooks.insertDelivery(row(failed, 1));
      const claimed = webhooks.claimDue('test', now, now + 60_000)!;
      webhooks.recordAttempt(
        uow,
        'test',
        { delivery_id: claimed.id, attempt: 1, status_code: 410, latency_ms: 3, error: null, created_at: at },
        deliveryLifecycle.move(claimed.status, 'failed'),
        { next_attempt_at: null, last_status_code: 410, last_error: 'HTTP 410', updated_at: at },
      );
      webhooks.insertDelivery(row(pending, now + 86_400_000));
    });
    return { failed, pending, runId };
  } finally {
    store.close();
  }
}

describe('errand webhooks', () => {
  it('shows the signing secret, the same each time, and rotates it with a 24 h overlap', async () => {
    const first = await cli('webhooks', 'secret', '--json');
    expect(first.code).toBe(0);
    const secret = first.json();
    expect(secret).toMatchObject({ object: 'webhook_secret', org_id: daemon.orgId, previous_expires_at: null });
    expect(secret.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect((await cli('webhooks', 'secret', '--json')).json().secret).toBe(secret.secret);

    const rotated = (await cli('webhooks', 'secret', '--rotate', '--json')).json();
    expect(rotated.secret).not.toBe(secret.secret);
    expect(Date.parse(rotated.previous_expires_at) - Date.now()).toBeGreaterThan(23 * 3600 * 1000);

    const human = await cli('webhooks', 'secret');
    expect(human.stdout.trim()).toBe(rotated.secret);
    expect(human.stderr).toContain('the previous secret also signs until');
  });

  it("takes test:<name> as well as test:<id> for an organisation's test mode, and says so in --help", async () => {
    const none = await cli('webhooks', 'secret', '--org', 'test:default');
    expect(none.code).toBe(1);
    expect(none.stderr).toContain("The organisation 'default' has no test mode yet: its first test key makes it (errand keys create --test --org default)");

    const twin = daemon.createTestKey();
    const byName = (await cli('webhooks', 'secret', '--org', 'test:default', '--json')).json();
    expect(byName).toMatchObject({ object: 'webhook_secret', org_id: twin.orgId });
    expect((await cli('webhooks', 'secret', '--org', `test:${daemon.orgId}`, '--json')).json()).toEqual(byName);
    expect(byName.secret).not.toBe((await cli('webhooks', 'secret', '--json')).json().secret);

    const unknown = await cli('webhooks', 'secret', '--org', 'test:no-such-org');
    expect(unknown.stderr).toContain("No such organisation: 'test:no-such-org'");
    expect((await cli('webhooks', 'secret', '--help')).stdout).toMatch(/--org <id or name>\s+organisation: id or name, or test:<id or name> for its\s+test mode/);
  });

  it('lists deliveries, filters by run and by failure, and redelivers one', async () => {
    const seeded = seedDeliveries();
    const all = (await cli('webhooks', 'deliveries', '--run', seeded.runId, '--json')).json();
    expect(all.data.map((d: { id: string }) => d.id).sort()).toEqual([seeded.failed, seeded.pending].sort());

    const failed = (await cli('webhooks', 'deliveries', '--run', seeded.runId, '--failed', '--json')).json();
    expect(failed.data).toEqual([expect.objectContaining({ id: seeded.failed, status: 'failed', attempts: 1, last_status_code: 410 })]);

    const table = await cli('webhooks', 'deliveries', '--run', seeded.runId);
    expect(table.stdout.split('\n')[0]).toMatch(/^ID\s+EVENT\s+RUN\s+STATUS/);
    expect(table.stdout).toContain(seeded.failed);

    const before = Date.now();
    const redelivered = await cli('webhooks', 'redeliver', seeded.failed, '--json');
    expect(redelivered.code).toBe(0);
    const delivery = redelivered.json();
    expect(delivery).toMatchObject({ id: seeded.failed, status: 'pending' });
    expect(Date.parse(delivery.next_attempt_at)).toBeLessThanOrEqual(Date.now());
    expect(Date.parse(delivery.next_attempt_at)).toBeGreaterThanOrEqual(before - 1000);

    const missing = await cli('webhooks', 'redeliver', 'whd_00000000000000000000000000');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("No such webhook delivery: 'whd_00000000000000000000000000'");
  });

  it("sets, shows and clears the organisation's webhook endpoint, through the target guard of the configuration", async () => {
    expect((await cli('webhooks', 'endpoint', '--json')).json()).toEqual({ object: 'webhook_endpoint', org_id: daemon.orgId, url: null, updated_at: null });

    // Without dev mode in the data directory's configuration, a loopback http target is refused (decided, never contacted).
    const refused = await cli('webhooks', 'endpoint', 'set', 'http://127.0.0.1:9/org-events');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('url must use https');

    const set = await runCli(['--home', daemon.home, 'webhooks', 'endpoint', 'set', 'http://127.0.0.1:9/org-events', '--json'], { env: { ERRAND_DEV: '1' } });
    expect(set.code, set.stderr).toBe(0);
    expect(set.json()).toMatchObject({ org_id: daemon.orgId, url: 'http://127.0.0.1:9/org-events' });
    expect((await cli('webhooks', 'endpoint')).stdout).toBe(`${daemon.orgId} sends its connection events to http://127.0.0.1:9/org-events\n`);

    const cleared = await cli('webhooks', 'endpoint', 'clear', '--json');
    expect(cleared.json()).toMatchObject({ url: null });
  });
});
