import type { Job, RunCreated, Run, Step } from '../../../cli/api.js';
import type { ErrandEvent } from '../../../cli/api.js';
import type { Connection, Status, Deliveries, DashboardSource, Email, JobView, MailItem, MailRecord, ReceivedEmail, WebhookDelivery } from '../../../cli/tui/dashboard/source.js';

/**
 * A dashboard source for component tests: canned answers, events pushed by the test, every action recorded. Like the
 * daemon's stream, the event stream starts when it connects: events pushed before are not delivered. A read of a run
 * answers the run as it is when the read is asked, even when the answer is held back (`holdReads`).
 */
export class FakeSource implements DashboardSource {
  runs: Run[] = [];
  mail: MailItem[] = [];
  mailRecords = new Map<string, MailRecord>();
  steps = new Map<string, Step[]>();
  jobs: JobView[] = [];
  deliveryList: WebhookDelivery[] = [];
  connections: Connection[] = [];
  statusValue: Status = status();
  readonly calls: string[] = [];
  private readonly queue: ErrandEvent[] = [];
  private wake: (() => void) | null = null;
  private nextEventId = 1;
  private connected = false;
  private connection: Promise<void> = Promise.resolve();
  private heldReads: Promise<void> | null = null;

  /** Sends an event down the stream, as the daemon would; before the stream is connected it is lost, as there. */
  push(type: ErrandEvent['type'], runId: string | null, data: unknown): void {
    // The test gives the data of the type it names, as the daemon would.
    const event = { id: this.nextEventId++, object: 'event', livemode: true, type, run_id: runId, created_at: new Date().toISOString(), data } as ErrandEvent;
    if (!this.connected) return;
    this.queue.push(event);
    this.wake?.();
  }

  /** Keeps the stream from connecting until the answered function is called. */
  holdConnection(): () => void {
    let release!: () => void;
    this.connection = new Promise((resolve) => (release = resolve));
    return release;
  }

  /** Holds the answers of run reads asked from now on (each the run as it was when asked) until the answered function is called. */
  holdReads(): () => void {
    let release!: () => void;
    this.heldReads = new Promise((resolve) => (release = resolve));
    return () => {
      this.heldReads = null;
      release();
    };
  }

  async *events(signal: AbortSignal, onConnection: (state: 'connected' | 'reconnecting') => void): AsyncIterable<ErrandEvent> {
    await this.connection;
    this.connected = true;
    onConnection('connected');
    while (!signal.aborted) {
      const event = this.queue.shift();
      if (event) {
        yield event;
        continue;
      }
      await new Promise<void>((resolve) => {
        this.wake = resolve;
        signal.addEventListener('abort', () => resolve(), { once: true });
      });
    }
  }

  async listRuns() {
    return this.runs;
  }
  async getRun(id: string) {
    this.calls.push(`getRun ${id}`);
    const run = this.runs.find((r) => r.task_id === id);
    if (!run) throw new Error(`no run ${id}`);
    if (this.heldReads !== null) await this.heldReads;
    return run;
  }
  async runSteps(id: string) {
    return this.steps.get(id) ?? [];
  }
  async cancelRun(id: string) {
    this.calls.push(`cancel ${id}`);
    return { ...(await this.getRun(id)), status: 'cancelled' as const };
  }
  async answerRun(id: string, body: object) {
    this.calls.push(`answer ${id} ${JSON.stringify(body)}`);
    return { ...(await this.getRun(id)), waiting_for: null };
  }
  async rerun(id: string): Promise<RunCreated> {
    this.calls.push(`rerun ${id}`);
    return { task_id: 'run_rerun0000000000000000000000', livemode: true, status: 'queued', poll_url: 'http://x', billing: {} as RunCreated['billing'], warnings: [] };
  }
  async listJobs() {
    this.calls.push('listJobs');
    return this.jobs;
  }
  async deliveries(): Promise<Deliveries> {
    this.calls.push('deliveries');
    return { kind: 'list', items: this.deliveryList };
  }
  async redeliver(id: string) {
    this.calls.push(`redeliver ${id}`);
    return this.deliveryList.find((d) => d.id === id)!;
  }
  async status() {
    return this.statusValue;
  }

  async listConnections(): Promise<Connection[]> {
    this.calls.push('listConnections');
    return this.connections;
  }

  async listMail(): Promise<MailItem[]> {
    this.calls.push('listMail');
    return this.mail;
  }

  async readMail(ref: Pick<MailItem, 'direction' | 'id'>): Promise<MailRecord> {
    this.calls.push(`readMail ${ref.id}`);
    const record = this.mailRecords.get(ref.id);
    if (!record) throw new Error(`no message ${ref.id}`);
    return record;
  }
}

export function status(overrides: Partial<Status> = {}): Status {
  return {
    object: 'status',
    livemode: true,
    version: '0.1.0',
    started_at: '2026-11-22T09:00:00.000Z',
    model_provider: modelProvider(),
    sandbox: { driver: 'docker', isolated: true, image: 'errand-sandbox:0.1.0', runtime: 'runc', warm_pool: { ready: 1, size: 2 }, firewall: { installed: true, detail: 'installed' }, hosts: [] },
    spend: { today_usd: 1.25, daily_cap_usd: 100 },
    runs: { active: 1, max_pending: 100 },
    email: { relay_domain: null, sending: 'off', relay: null, receiving: null, mx_host: null, problem: 'mail.relay_domain is not set: email is off' },
    ...overrides,
  };
}

export function modelProvider(overrides: Partial<Status['model_provider']> = {}): Status['model_provider'] {
  return {
    name: 'anthropic',
    configured: true,
    problem: null,
    base_url: 'https://api.anthropic.com',
    reachable: true,
    key_accepted: true,
    detail: 'listed its models',
    checked_at: '2026-11-22T09:00:00.000Z',
    ...overrides,
  };
}

export function connection(id: string, overrides: Partial<Connection> = {}): Connection {
  return {
    id,
    object: 'connection',
    livemode: true,
    name: 'github',
    type: 'token',
    project_id: null,
    is_enabled: true,
    has_secret: true,
    env_var_name: 'GITHUB_TOKEN',
    url: null,
    transport: null,
    headers: null,
    provider: null,
    auth_status: 'authenticated',
    auth_detail: 'a secret is set',
    auth_checked_at: null,
    expires_at: null,
    created_at: '2026-11-22T09:00:00.000Z',
    updated_at: '2026-11-22T09:00:00.000Z',
    ...overrides,
  };
}

export function envelope(id: string, overrides: Partial<Run> = {}): Run {
  return {
    task_id: id,
    object: 'run',
    livemode: true,
    status: 'running',
    result: null,
    confidence: null,
    evidence: null,
    failure_reason: null,
    failure_code: null,
    failure_detail: null,
    warnings: [],
    usage: { duration_ms: null, input_tokens: 0, output_tokens: 0, cost_usd: 0.0123 },
    max_cost_usd: null,
    created_at: new Date(Date.now() - 65_000).toISOString(),
    started_at: null,
    finished_at: null,
    job_id: null,
    project_id: 'proj_x',
    name: null,
    model: 'sonnet',
    attempt: 1,
    progress: { steps: 2, last_action: 'browser.navigate https://shop.test' },
    waiting_for: null,
    live_url: null,
    files: [],
    mode: 'agent',
    sandbox: { label: null, host: null },
    action_space: 'dom',
    ...overrides,
  };
}

export function step(runId: string, seq: number, overrides: Partial<Step> = {}): Step & { run_cost_usd: number } {
  return {
    id: `step_${runId}_${seq}`,
    object: 'run_step',
    livemode: true,
    run_id: runId,
    attempt: 1,
    seq,
    kind: 'tool',
    name: 'browser.read_text',
    input: {},
    output: 'ok',
    is_error: false,
    duration_ms: 300,
    usage: { input_tokens: 0, output_tokens: 0, cost_usd: 0 },
    screenshot_url: null,
    created_at: new Date().toISOString(),
    run_cost_usd: 0.02,
    ...overrides,
  };
}

export function job(id: string, overrides: Partial<JobView> = {}): JobView {
  const base: Job = {
    id,
    object: 'job',
    livemode: true,
    project_id: 'proj_x',
    name: 'price check',
    description: null,
    prompt: 'p',
    model: 'haiku',
    input_schema: null,
    output_schema: null,
    connections: [],
    timeout_s: null,
    max_cost_usd: null,
    recording: true,
    replay: 'off',
    human_timeout_s: null,
    human_email: null,
    require_approval: false,
    schedule: null,
    proxy: null,
    sandbox_label: null,
    profile: null,
    profile_mode: 'read_write',
    save_profile: null,
    action_space: 'dom',
    created_at: '2026-11-22T09:00:00.000Z',
    updated_at: '2026-11-22T09:00:00.000Z',
  };
  return { ...base, next_firing: null, ...overrides };
}

export function delivery(id: string, overrides: Partial<WebhookDelivery> = {}): WebhookDelivery {
  return {
    id,
    object: 'webhook_delivery',
    event_id: `evt_${id}`,
    event: 'run.completed',
    run_id: 'run_a',
    url: 'https://hooks.example.com/errand',
    status: 'failed',
    attempts: 3,
    next_attempt_at: null,
    last_status_code: 503,
    last_error: 'HTTP 503',
    created_at: new Date(Date.now() - 120_000).toISOString(),
    updated_at: new Date().toISOString(),
    ...overrides,
  };
}

export function receivedMail(id: string, overrides: Partial<ReceivedEmail> = {}): ReceivedEmail {
  return {
    message_id: id,
    in_reply_to: 'msg_sent000000000000000000000',
    correlation_token: 'tok',
    from: 'ada@example.test',
    to: ['default+tok@relay.test'],
    subject: 'Re: Lunch on Friday?',
    text: 'Yes, 12:30 works!\n\nOn Wed, Errand wrote:\n> Shall we?',
    html: null,
    reply_text: 'Yes, 12:30 works!',
    received_at: new Date(Date.now() - 60_000).toISOString(),
    object: 'received_email',
    kind: 'reply',
    inbox_id: null,
    run_id: null,
    from_name: 'Ada',
    message_id_header: '<a@example.test>',
    in_reply_to_header: '<m@relay.test>',
    auth: { spf: 'pass', dkim: 'pass', dmarc: 'pass' },
    attachments: [],
    truncated: false,
    metadata: { thread: 'lunch-1' },
    ...overrides,
  } as ReceivedEmail;
}

export function sentMail(id: string, overrides: Partial<Email> = {}): Email {
  return {
    id,
    object: 'email',
    message_id: id,
    inbox_id: null,
    status: 'sent',
    from_address: 'default@relay.test',
    from_name: 'Acme',
    subject: 'Lunch on Friday?',
    to: ['ada@example.test'],
    cc: [],
    bcc: [],
    reply_to: { address: 'default+tok@relay.test', reason: 'relay_fallback', detail: 'no sending domain' },
    correlation_token: 'tok',
    message_id_header: '<m@relay.test>',
    metadata: null,
    client_id: null,
    send_at: null,
    suppressed: [],
    recipients: [{ address: 'ada@example.test', kind: 'to', status: 'bounced', detail: '550 5.1.1 no such mailbox here, and a long explanation from the receiving server that goes on and on', updated_at: new Date().toISOString() }],
    created_at: new Date(Date.now() - 3_600_000).toISOString(),
    updated_at: new Date().toISOString(),
    ...overrides,
  } as Email;
}
