import { isoTime, type Clock } from '../clock.js';
import type { ModelProvider } from '../engine/providers/provider.js';
import type { SandboxDriver } from '../sandbox/driver.js';

/** GET /v1/status: how the running daemon stands, as `errand doctor` reports it. */
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
  };
  sandbox: {
    driver: 'local' | 'docker';
    isolated: boolean;
    image: string | null;
    warm_pool: { size: number; ready: number } | null;
    firewall: { installed: boolean; detail: string } | null;
  };
}

export interface StatusServiceOptions {
  provider: ModelProvider;
  driver: SandboxDriver;
  clock: Clock;
  version: string;
  /** Longest wait for the model API's answer. */
  probeTimeoutMs?: number;
}

/** What the daemon reports about itself: read from the objects it runs with, never from a shell's environment. */
export class StatusService {
  private readonly startedAt: string;

  constructor(private readonly o: StatusServiceOptions) {
    this.startedAt = isoTime(o.clock.now());
  }

  async status(): Promise<DaemonStatus> {
    const { provider, driver } = this.o;
    const problem = provider.unusableReason();
    const [probe, sandbox] = await Promise.all([problem === null ? provider.probe(this.o.probeTimeoutMs ?? 5_000) : null, driver.report()]);
    return {
      object: 'status',
      version: this.o.version,
      started_at: this.startedAt,
      model_provider: {
        name: provider.name,
        configured: problem === null,
        problem,
        base_url: provider.baseUrl === null ? null : withoutCredentials(provider.baseUrl),
        reachable: probe?.reachable ?? null,
        key_accepted: probe?.keyAccepted ?? null,
        detail: probe?.detail ?? `not checked: ${problem}`,
      },
      sandbox: {
        driver: sandbox.driver,
        isolated: sandbox.isolated,
        image: sandbox.image,
        warm_pool: sandbox.warmPool,
        firewall: sandbox.firewall,
      },
    };
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
