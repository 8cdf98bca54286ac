import { OrgModes } from '../orgs/org-modes.js';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { EventBus } from '../events.js';
import type { InboundRefusal, MailObserver, OutboundRecipientResult } from '../mail/mail-observer.js';
import { isTerminal } from '../vocabulary/run-status.js';
import type { Store } from '../store/store.js';

/** How one webhook attempt ended: delivered, to be retried, or given up. */
export type WebhookAttemptOutcome = 'succeeded' | 'retrying' | 'failed';

export interface MetricsSources {
  store: Store;
  events: EventBus;
}

/** What two gauges read at each scrape: parts built after the metrics, since they report to them. */
export interface WatchedQueues {
  /** Its `warmCount`: started sandboxes waiting for a run (the docker driver's warm pool). */
  sandboxes: { warmCountsByHost(): ReadonlyMap<string, number> };
  /** Its `queueDepth()`: messages on the outbound mail queue. */
  mailQueue: { queueDepth(): number };
}

/**
 * The daemon's Prometheus metrics, in a registry of their own (never prom-client's global one). Labels are bounded
 * sets (statuses, reasons, model aliases, route templates, outcomes): never an organisation, key, id, URL or mail
 * address. `mailObserver` is what the mail system reports its SMTP traffic to.
 * `docs/operations.md` lists every metric; a test scrapes them with a Prometheus text parser.
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly http: Histogram<'method' | 'route' | 'status'>;
  private readonly webhookAttempts: Histogram<'outcome'>;
  private readonly sandboxStart: Histogram<'driver' | 'host'>;
  private readonly runsCreated: Counter<'source' | 'mode'>;
  private readonly runsFinished: Counter<'status' | 'failure_reason' | 'mode'>;
  /** Which runs are of test mode (issue 25): labelled `mode`, so that they are never read as live traffic. */
  private readonly modes: OrgModes;
  private readonly runDuration: Histogram<'status'>;
  private readonly runCost: Histogram<'model'>;
  private readonly tokens: Counter<'model' | 'direction'>;
  private readonly smtpInbound: Counter<'outcome' | 'reason'>;
  private readonly smtpOutbound: Counter<'result'>;
  readonly mailObserver: MailObserver;
  private readonly unsubscribe: () => void;

  constructor(private readonly sources: MetricsSources) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry, prefix: 'errand_' });
    this.http = new Histogram({
      name: 'errand_http_request_duration_seconds',
      help: 'HTTP API requests by method, route template and status, and the time to produce their responses.',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers,
    });
    this.modes = new OrgModes(sources.store.orgs);
    this.runsCreated = new Counter({ name: 'errand_runs_created_total', help: 'Runs created, by source (api or schedule) and mode (live or test).', labelNames: ['source', 'mode'], registers });
    this.runsFinished = new Counter({
      name: 'errand_runs_finished_total',
      help: 'Runs that ended, by status, failure reason (none for a success or a cancellation) and mode (live or test).',
      labelNames: ['status', 'failure_reason', 'mode'],
      registers,
    });
    const store = sources.store;
    new Gauge({
      name: 'errand_runs_active',
      help: 'Runs queued (the queue depth) and running now.',
      labelNames: ['status'],
      registers,
      collect() {
        const counts = store.runs.countActiveByStatus();
        this.set({ status: 'queued' }, counts.queued);
        this.set({ status: 'running' }, counts.running);
      },
    });
    this.runDuration = new Histogram({
      name: 'errand_run_duration_seconds',
      help: 'Time from a run\'s start to its end, by final status.',
      labelNames: ['status'],
      buckets: [1, 5, 15, 30, 60, 120, 300, 600, 1800, 3600, 14_400, 86_400],
      registers,
    });
    this.runCost = new Histogram({
      name: 'errand_run_cost_usd',
      help: 'What an ended run cost (model and sandbox time), in USD, by model alias.',
      labelNames: ['model'],
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    this.tokens = new Counter({
      name: 'errand_model_tokens_total',
      help: 'Model tokens of ended runs, by model alias and direction (input or output).',
      labelNames: ['model', 'direction'],
      registers,
    });
    this.sandboxStart = new Histogram({
      name: 'errand_sandbox_start_seconds',
      help: 'Time to get a sandbox for a run (from the warm pool or started), by driver and sandbox host.',
      labelNames: ['driver', 'host'],
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60],
      registers,
    });
    this.webhookAttempts = new Histogram({
      name: 'errand_webhook_attempt_duration_seconds',
      help: 'Webhook delivery attempts by outcome (succeeded, retrying, failed) and how long the receiver took.',
      labelNames: ['outcome'],
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    });
    this.smtpInbound = new Counter({
      name: 'errand_smtp_inbound_total',
      help: 'Inbound SMTP: messages accepted (reason none), and connections, recipients and messages refused, by reason.',
      labelNames: ['outcome', 'reason'],
      registers,
    });
    this.smtpOutbound = new Counter({
      name: 'errand_smtp_outbound_recipients_total',
      help: 'Outbound mail: each recipient of each attempt by its recorded result (delivered, deferred, bounced, failed).',
      labelNames: ['result'],
      registers,
    });
    this.mailObserver = {
      inbound: (outcome: 'accepted' | InboundRefusal) =>
        this.smtpInbound.inc(outcome === 'accepted' ? { outcome: 'accepted', reason: 'none' } : { outcome: 'refused', reason: outcome }),
      outbound: (result: OutboundRecipientResult) => this.smtpOutbound.inc({ result }),
    };
    this.unsubscribe = sources.events.on('wake.run_transitioned', ({ runId, from, to }) => {
      if (from === null) this.runCreated(runId);
      else if (isTerminal(to)) this.runEnded(runId);
    });
  }

  /** Adds the gauges of the sandbox pool and the outbound mail queue, once those exist. */
  watch(queues: WatchedQueues): void {
    const registers = [this.registry];
    new Gauge({
      name: 'errand_sandbox_pool_size',
      help: 'Started sandboxes waiting for a run, by sandbox host.',
      labelNames: ['host'],
      registers,
      collect() {
        this.reset();
        for (const [host, ready] of queues.sandboxes.warmCountsByHost()) this.set({ host }, ready);
      },
    });
    new Gauge({
      name: 'errand_smtp_outbound_queue',
      help: 'Messages on the outbound mail queue: due, being sent, or waiting for a retry.',
      registers,
      collect() {
        this.set(queues.mailQueue.queueDepth());
      },
    });
  }

  httpRequest(method: string, route: string, status: number, seconds: number): void {
    this.http.observe({ method, route, status: String(status) }, seconds);
  }

  webhookAttempt(outcome: WebhookAttemptOutcome, seconds: number): void {
    this.webhookAttempts.observe({ outcome }, seconds);
  }

  sandboxStarted(driver: string, host: string, seconds: number): void {
    this.sandboxStart.observe({ driver, host }, seconds);
  }

  /** The text of a scrape. */
  scrape(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  close(): void {
    this.unsubscribe();
    this.registry.clear();
  }

  private modeOf(orgId: string): 'live' | 'test' {
    return this.modes.livemode(orgId) ? 'live' : 'test';
  }

  private runCreated(runId: string): void {
    const run = this.sources.store.runs.getById(runId);
    if (run) this.runsCreated.inc({ source: run.source, mode: this.modeOf(run.org_id) });
  }

  private runEnded(runId: string): void {
    const run = this.sources.store.runs.getById(runId);
    if (!run) return;
    this.runsFinished.inc({ status: run.status, failure_reason: run.failure_reason ?? 'none', mode: this.modeOf(run.org_id) });
    if (run.started_at !== null && run.finished_at !== null) {
      this.runDuration.observe({ status: run.status }, Math.max(0, Date.parse(run.finished_at) - Date.parse(run.started_at)) / 1000);
    }
    this.runCost.observe({ model: run.model }, run.cost_usd);
    this.tokens.inc({ model: run.model, direction: 'input' }, run.input_tokens);
    this.tokens.inc({ model: run.model, direction: 'output' }, run.output_tokens);
  }
}
