import { isoTime } from '../clock.js';
import type { ModelProvider, ProviderProbe } from '../engine/providers/provider.js';
import type { MailStatus } from '../mail/mail-status.js';
import type { Resources } from '../resources.js';
import type { SandboxDriver, SandboxHostReport } from '../sandbox/driver.js';

/** How long an answer of the model API stands for every caller of GET /v1/status (see docs/api.md). */
export const PROBE_FRESH_MS = 30_000;

/** GET /v1/status: how the running daemon stands, as `errand doctor` reports it and the TUI's status bar shows it. */
export interface DaemonStatus {
  object: 'status';
  version: string;
  started_at: string;
  model_provider: {
    name: 'anthropic' | 'openai';
    /** Whether the daemon has what it needs to call the API (a key, a base URL). */
    configured: boolean;
    /** What is missing when it is not, naming the setting. */
    problem: string | null;
    /** Where calls go, without credentials. */
    base_url: string | null;
    /** Whether the API answered a request for its models (which costs no tokens); null when not asked. */
    reachable: boolean | null;
    key_accepted: boolean | null;
    detail: string;
    /** When the API was asked; null when it was not. */
    checked_at: string | null;
  };
  sandbox: {
    driver: 'local' | 'docker';
    isolated: boolean;
    image: string | null;
    runtime: string | null;
    warm_pool: { size: number; ready: number } | null;
    firewall: { installed: boolean; detail: string } | null;
    hosts: SandboxHostReport[];
  };
  /** The caller's organisation: what it spent today (UTC) against its daily cap. */
  spend: { today_usd: number; daily_cap_usd: number };
  /** The caller's organisation: its queued plus running runs against the most it may have. */
  runs: { active: number; max_pending: number };
  email: MailStatus;
}

export interface StatusServiceOptions {
  provider: ModelProvider;
  driver: SandboxDriver;
  version: string;
  mail: () => MailStatus;
  /** Longest wait for the model API's answer. */
  probeTimeoutMs?: number;
}

/** What the daemon reports about itself: read from the objects it runs with, never from a shell's environment. */
export class StatusService {
  private readonly startedAt: string;
  /** The last probe of the model API (or the one under way), shared by every caller while it is fresh. */
  private probe: { at: number; answer: Promise<ProviderProbe> } | null = null;

  constructor(
    private readonly r: Pick<Resources, 'store' | 'clock' | 'config'>,
    private readonly o: StatusServiceOptions,
  ) {
    this.startedAt = isoTime(r.clock.now());
  }

  async status(orgId: string): Promise<DaemonStatus> {
    const { provider, driver } = this.o;
    const problem = provider.unusableReason();
    const [probe, sandbox] = await Promise.all([problem === null ? this.probeModels() : null, driver.report()]);
    const now = isoTime(this.r.clock.now());
    const caps = this.r.store.spend.caps(orgId, null, now.slice(0, 10), now.slice(0, 7));
    return {
      object: 'status',
      version: this.o.version,
      started_at: this.startedAt,
      model_provider: {
        name: provider.name,
        configured: problem === null,
        problem,
        base_url: provider.baseUrl === null ? null : withoutCredentials(provider.baseUrl),
        reachable: probe?.answer.reachable ?? null,
        key_accepted: probe?.answer.keyAccepted ?? null,
        detail: probe?.answer.detail ?? `not checked: ${problem}`,
        checked_at: probe === null ? null : isoTime(probe.at),
      },
      sandbox: {
        driver: sandbox.driver,
        isolated: sandbox.isolated,
        image: sandbox.image,
        runtime: sandbox.runtime,
        warm_pool: sandbox.warmPool,
        firewall: sandbox.firewall,
        hosts: sandbox.hosts,
      },
      spend: { today_usd: caps.orgSpentTodayUsd, daily_cap_usd: caps.orgDailyCapUsd ?? this.r.config['limits.org_daily_cap_usd'] },
      runs: { active: this.r.store.runs.countActive(orgId), max_pending: this.r.config['limits.max_pending_runs'] },
      email: this.o.mail(),
    };
  }

  /**
   * The model API's answer, asked at most once per PROBE_FRESH_MS whoever calls: any key may read the status (the
   * TUI does on every step), and each read must not become a request to the provider.
   */
  private async probeModels(): Promise<{ at: number; answer: ProviderProbe }> {
    const now = this.r.clock.now();
    if (this.probe === null || now - this.probe.at >= PROBE_FRESH_MS) {
      this.probe = { at: now, answer: this.o.provider.probe(this.o.probeTimeoutMs ?? 5_000) };
    }
    const { at, answer } = this.probe;
    return { at, answer: await answer };
  }
}

/** A base URL as it may be shown: no user, password or query string, where a credential could travel. */
function withoutCredentials(url: string): string {
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    u.search = '';
    return u.href.replace(/\/$/, '');
  } catch {
    return '(not a URL)';
  }
}
