import { isoTime } from '../clock.js';
import type { Resources } from '../resources.js';
import type { SandboxDriverName } from '../sandbox/driver.js';

/** What `GET /v1/status` answers: how the daemon is doing, for the caller's organisation. */
export interface DaemonStatus {
  object: 'status';
  version: string;
  started_at: string;
  model_provider: { name: string; usable: boolean };
  sandbox: { driver: SandboxDriverName; warm_pool: { ready: number; size: number } | null };
  spend: { today_usd: number; daily_cap_usd: number };
  runs: { active: number; max_pending: number };
}

export interface StatusServiceOptions {
  version: string;
  startedAt: number;
  provider: { name: string; unusableReason(): string | null };
  sandbox: () => DaemonStatus['sandbox'];
}

/** The daemon's health at a glance (the TUI's status bar): model provider, sandbox pool, today's spend against the cap. */
export class StatusService {
  constructor(
    private readonly r: Pick<Resources, 'store' | 'clock' | 'config'>,
    private readonly o: StatusServiceOptions,
  ) {}

  get(orgId: string): DaemonStatus {
    const today = isoTime(this.r.clock.now());
    const caps = this.r.store.spend.caps(orgId, null, today.slice(0, 10), today.slice(0, 7));
    return {
      object: 'status',
      version: this.o.version,
      started_at: isoTime(this.o.startedAt),
      model_provider: { name: this.o.provider.name, usable: this.o.provider.unusableReason() === null },
      sandbox: this.o.sandbox(),
      spend: { today_usd: caps.orgSpentTodayUsd, daily_cap_usd: caps.orgDailyCapUsd ?? this.r.config['limits.org_daily_cap_usd'] },
      runs: { active: this.r.store.runs.countActive(orgId), max_pending: this.r.config['limits.max_pending_runs'] },
    };
  }
}
