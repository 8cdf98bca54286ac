import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pino } from 'pino';
import { systemClock, isoTime, type Clock } from '../../src/clock.js';
import { loadConfig } from '../../src/config/load.js';
import type { Config } from '../../src/config/schema.js';
import { EventAnnouncer } from '../../src/event-log/event-announcer.js';
import { EventLog } from '../../src/event-log/event-log.js';
import { EventBus } from '../../src/events.js';
import { createIdFactory } from '../../src/ids.js';
import { allowsPrivateTargets } from '../../src/network/target-guard.js';
import { OrgsService } from '../../src/orgs/orgs-service.js';
import type { RunEnvelope } from '../../src/runs/envelope.js';
import type { TransitionHook } from '../../src/runs/run-change.js';
import { runEndEvents } from '../../src/runs/run-end-events.js';
import { loadMasterKey } from '../../src/secrets/master-key.js';
import { SecretBox } from '../../src/secrets/secret-box.js';
import { openStore, type Store } from '../../src/store/store.js';
import type { RunStatus } from '../../src/vocabulary/run-status.js';
import type { RunRow } from '../../src/store/runs-table.js';
import { WebhooksStore } from '../../src/store/webhooks-store.js';
import { runLifecycle } from '../../src/runs/state-machine.js';
import { DeliveryWorker } from '../../src/webhooks/delivery-worker.js';
import { WebhookOutbox } from '../../src/webhooks/outbox.js';
import { SigningSecrets } from '../../src/webhooks/signing-secrets.js';
import { tempDir } from '../fixtures/temp-dir.js';
import { testGuard } from '../fixtures/test-guard.js';

export interface ReceivedRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Reply {
  status: number;
  headers?: Record<string, string>;
  /** Wait this long before answering. */
  delayMs?: number;
}

/** A loopback HTTP receiver that records every request and answers with `reply(request, index)`. */
export class Receiver {
  readonly requests: ReceivedRequest[] = [];
  reply: (req: ReceivedRequest, index: number) => Reply = () => ({ status: 200 });
  private readonly server: Server;
  private readonly timers = new Set<NodeJS.Timeout>();

  private constructor() {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const received = { path: req.url ?? '/', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
        const index = this.requests.push(received) - 1;
        const r = this.reply(received, index);
        const answer = () => {
          if (res.destroyed) return;
          res.writeHead(r.status, r.headers ?? {});
          res.end('ok');
        };
        if (r.delayMs === undefined) return answer();
        const t = setTimeout(() => {
          this.timers.delete(t);
          answer();
        }, r.delayMs);
        this.timers.add(t);
      });
    });
  }

  static async start(): Promise<Receiver> {
    const r = new Receiver();
    await new Promise<void>((resolve) => r.server.listen(0, '127.0.0.1', resolve));
    return r;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  url(path = '/hook'): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  async close(): Promise<void> {
    for (const t of this.timers) clearTimeout(t);
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

export async function waitFor<T>(probe: () => T | undefined | null | false, what: string, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export interface HarnessOptions {
  config?: Record<string, unknown>;
  /** The clock the signing secrets see (rotation windows); the worker keeps real time for signatures. */
  secretsClock?: Clock;
  dbPath?: string;
}

/** One data directory with a real SQLite store, an organisation, and the webhook parts wired together. */
export class Harness {
  readonly store: Store;
  readonly webhooks: WebhooksStore;
  readonly config: Config;
  readonly events = new EventBus();
  readonly ids = createIdFactory();
  readonly logger = pino({ level: 'silent' });
  readonly secrets: SigningSecrets;
  readonly eventLog: EventLog;
  readonly outbox: WebhookOutbox;
  readonly box: SecretBox;
  readonly announcer: EventAnnouncer;
  /** The daemon's transition hook that announces a run's end, with a smaller envelope than the daemon's. */
  readonly runEnd: TransitionHook;
  readonly orgId: string;
  readonly projectId: string;
  private readonly workers: DeliveryWorker[] = [];

  constructor(
    readonly home: string,
    options: HarnessOptions = {},
  ) {
    this.config = loadConfig({
      home,
      env: {},
      flags: { 'webhooks.allow_private_targets': true, 'webhooks.retry_schedule_s': '0,0.05,0.05,0.05', 'webhooks.timeout_s': 2, ...options.config },
    });
    this.store = openStore(options.dbPath ?? join(home, 'errand.db'));
    this.webhooks = this.store.webhooks;
    this.eventLog = new EventLog({ store: this.store.events, clock: systemClock, events: this.events });
    const box = new SecretBox(loadMasterKey({ home, env: {} }));
    this.box = box;
    this.secrets = new SigningSecrets({ store: this.store, box, clock: options.secretsClock ?? systemClock, signer: 'org' });
    this.outbox = new WebhookOutbox({
      store: this.webhooks,
      clock: systemClock,
      ids: this.ids,
      events: this.events,
      retryScheduleS: this.config['webhooks.retry_schedule_s'],
    });
    this.announcer = new EventAnnouncer({ log: this.eventLog, webhooks: this.outbox, store: this.store, ids: this.ids });
    // Three members keep the payload assertions short; webhooks-e2e checks the daemon's whole envelope.
    const envelope = (run: RunRow) => ({ task_id: run.id, status: run.status, result: run.result === null ? null : JSON.parse(run.result) }) as unknown as RunEnvelope;
    this.runEnd = runEndEvents(this.announcer, envelope);
    const existing = this.store.orgs.getByName('acme');
    const org = existing ?? new OrgsService({ store: this.store, clock: systemClock, ids: this.ids }).create('acme');
    this.orgId = org.id;
    this.projectId = this.store.projects.getDefault(this.orgId)!.id;
  }

  worker(options: { concurrency?: number; pollIntervalMs?: number } = {}): DeliveryWorker {
    const w = new DeliveryWorker({
      store: this.store,
      signingSecrets: (orgId) => this.secrets.signingSecrets(orgId),
      clock: systemClock,
      logger: this.logger,
      events: this.events,
      announcer: this.announcer,
      config: this.config,
      guard: testGuard({ allowPrivate: allowsPrivateTargets(this.config) }),
      ...options,
    });
    this.workers.push(w);
    return w;
  }

  /** Inserts a running run, then makes it `to` the way RunsService does: the hook inside the status transaction. */
  finishRun(to: RunStatus, callbackUrl: string | null, options: { failAfterHook?: boolean } = {}): RunRow {
    const now = isoTime(Date.now());
    const id = this.ids('run');
    this.store.transaction((uow) => this.store.runs.insert(uow, {
      id, org_id: this.orgId, key_id: null, project_id: this.projectId, job_id: null, name: null, source: 'api', prompt: 'Say hi',
      inputs: '{}', model: 'haiku', output_schema: null, callback_url: callbackUrl, connections: '[]', timeout_s: 60, recording: 1, status: 'running',
      attempt: 1, warnings: '[]', created_at: now, updated_at: now,
    }));
    this.store.transaction((uow) => {
      this.store.runs.setStatus(uow, id, runLifecycle.move('running', to), { finished_at: now, updated_at: now, result: to === 'succeeded' ? '{"answer":42}' : null });
      this.runEnd({ run: this.store.runs.getById(id)!, from: 'running', to }, uow);
      if (options.failAfterHook) throw new Error('the transaction fails after the hook');
    });
    return this.store.runs.getById(id)!;
  }

  delivery(runId: string) {
    return this.webhooks.listDeliveries(this.orgId, { runId, failedOnly: false, limit: 10, cursor: null }).items[0];
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.close()));
    this.store.close();
  }
}

export async function withHome<T>(fn: (home: string) => Promise<T>): Promise<T> {
  const dir = tempDir();
  try {
    return await fn(dir.path);
  } finally {
    dir.remove();
  }
}
