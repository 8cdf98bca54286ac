import { readFileSync } from 'node:fs';
import { request, type IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { createParser } from 'eventsource-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/clock.js';
import { EventLog } from '../../src/event-log/event-log.js';
import { EventBus } from '../../src/events.js';
import { openStore } from '../../src/store/store.js';
import { openSse } from '../fixtures/sse-client.js';
import { startDaemon, type TestDaemon } from '../fixtures/test-daemon.js';

const EVENTS = 2000;
const EVENT_BYTES = 64 * 1024;
/** What the daemon's peak memory may grow by while the client holds back EVENTS × EVENT_BYTES (128 MiB) of events. */
const BOUND_BYTES = 32 * 1024 * 1024;

let daemon: TestDaemon;

beforeAll(async () => {
  daemon = await startDaemon({ env: { ERRAND_EVENTS_HEARTBEAT_S: '1' } });
});
afterAll(async () => {
  await daemon?.cleanup();
});

/** The daemon's peak resident memory so far (VmHWM), in bytes. */
function peakRss(pid: number): number {
  const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]!;
  return Number(kb) * 1024;
}

function openPaused(url: string, key: string): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { authorization: `Bearer ${key}`, accept: 'text/event-stream' }, agent: false }, (res) => {
      res.pause();
      resolve(res);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('GET /v1/events with a client that stops reading', () => {
  it("keeps the daemon's memory bounded, and sends every event in order once the client reads again (measured)", async () => {
    const stalled = await openPaused(`${daemon.url}/v1/events`, daemon.key);
    expect(stalled.statusCode).toBe(200);
    const probeOrg = daemon.createOrgWithKey(`probe-${Date.now()}`);
    const probe = await openSse(`${daemon.url}/v1/events`, { key: probeOrg.key });

    const pid = daemon.process.pid!;
    const before = peakRss(pid);
    const store = openStore(join(daemon.home, 'errand.db'));
    const appended: number[] = [];
    try {
      const log = new EventLog({ store: store.events, clock: systemClock, events: new EventBus() });
      const padding = 'x'.repeat(EVENT_BYTES);
      for (let i = 0; i < EVENTS; i += 100) {
        store.transaction((uow) => {
          for (let j = i; j < i + 100; j++) appended.push(log.append(uow, { orgId: daemon.orgId, type: 'test.bulk', data: { n: j, padding } }));
        });
      }
      // Appended last: streams are served organisation by organisation in one pass, so when the probe has this,
      // the held-back stream has been offered the bulk events too.
      store.transaction((uow) => log.append(uow, { orgId: probeOrg.orgId, type: 'test.marker', data: {} }));
    } finally {
      store.close();
    }
    await probe.waitFor((events) => events.some((e) => e.event === 'test.marker'));
    probe.close();
    const growth = peakRss(pid) - before;
    console.log(`daemon peak RSS grew by ${(growth / 2 ** 20).toFixed(1)} MiB while a client held back ${((EVENTS * EVENT_BYTES) / 2 ** 20).toFixed(0)} MiB of events`);
    expect(growth).toBeLessThan(BOUND_BYTES);

    const ids: number[] = [];
    const parser = createParser({ onEvent: (m) => ids.push(Number(m.id)) });
    stalled.setEncoding('utf8');
    stalled.on('data', (chunk: string) => {
      parser.feed(chunk);
      if (ids.length >= EVENTS) stalled.destroy();
    });
    stalled.resume();
    await new Promise((resolve) => stalled.once('close', resolve));
    expect(ids.slice(0, EVENTS)).toEqual(appended);
  });
});
