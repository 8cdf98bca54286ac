import { isoTime, type Clock } from '../clock.js';
import type { Config } from '../config/schema.js';
import { QuotaError } from '../errors.js';
import type { Store } from '../store/store.js';
import { roundUsd } from './prices.js';

/** What a run needs left under the caps to be accepted; `what()` says what that is, after "the N USD". */
export interface StartNeed {
  usd: number;
  what: () => string;
}

export interface Budget {
  /** USD the key may still spend this month, or null without a cap. */
  keyRemainingUsd: number | null;
  orgRemainingUsd: number;
  /** The tighter of the two. */
  remainingUsd: number;
  /** Which cap is the tighter one. */
  bindingCap: 'monthly_cap' | 'daily_cap';
}

/**
 * The spend caps: a key's month-to-date spend against its `monthly_cap_usd`, an organisation's spend today (UTC)
 * against its daily cap. Checked before a run is accepted and before every model call.
 */
export class SpendCaps {
  /**
   * USD held by model calls in flight, per organisation and per key. Without it, concurrent runs of one
   * organisation would each see the same remaining budget and together overshoot the cap. In memory: one daemon
   * serves a data directory (main.ts refuses a second), and a call in flight does not outlive its process.
   */
  private readonly held = { org: new Map<string, number>(), key: new Map<string, number>() };

  constructor(private readonly r: { store: Store; clock: Clock; config: Config }) {}

  /**
   * Holds `usd` against both caps until the returned release is called (once the call's real cost is recorded);
   * or the budget as it stands when it does not fit.
   */
  hold(orgId: string, keyId: string | null, usd: number): { kind: 'held'; release: () => void } | { kind: 'refused'; budget: Budget } {
    const budget = this.budget(orgId, keyId);
    if (usd > budget.remainingUsd) return { kind: 'refused', budget };
    adjust(this.held.org, orgId, usd);
    if (keyId !== null) adjust(this.held.key, keyId, usd);
    let released = false;
    return {
      kind: 'held',
      release: () => {
        if (released) return;
        released = true;
        adjust(this.held.org, orgId, -usd);
        if (keyId !== null) adjust(this.held.key, keyId, -usd);
      },
    };
  }

  budget(orgId: string, keyId: string | null): Budget {
    const today = isoTime(this.r.clock.now());
    const caps = this.r.store.spend.caps(orgId, keyId, today.slice(0, 10), today.slice(0, 7));
    const dailyCap = caps.orgDailyCapUsd ?? this.r.config['limits.org_daily_cap_usd'];
    const orgRemainingUsd = roundUsd(dailyCap - caps.orgSpentTodayUsd - (this.held.org.get(orgId) ?? 0));
    const keyRemainingUsd =
      keyId === null || caps.keyMonthlyCapUsd === null ? null : roundUsd(caps.keyMonthlyCapUsd - caps.keySpentThisMonthUsd - (this.held.key.get(keyId) ?? 0));
    const keyBinds = keyRemainingUsd !== null && keyRemainingUsd < orgRemainingUsd;
    return {
      keyRemainingUsd,
      orgRemainingUsd,
      remainingUsd: keyBinds ? keyRemainingUsd : orgRemainingUsd,
      bindingCap: keyBinds ? 'monthly_cap' : 'daily_cap',
    };
  }

  /** 402 when either cap is already reached, or what is left is less than what the run needs to start; else the budget. */
  assertCanStart(orgId: string, keyId: string | null, need: StartNeed): Budget {
    const b = this.budget(orgId, keyId);
    if (b.keyRemainingUsd !== null && b.keyRemainingUsd <= 0) {
      throw new QuotaError('monthly_cap_reached', "This API key has reached its monthly spend cap (monthly_cap_usd); it resets on the 1st (UTC)");
    }
    if (b.orgRemainingUsd <= 0) {
      throw new QuotaError('daily_cap_reached', "The organisation has reached its daily spend cap; it resets at 00:00 UTC");
    }
    if (b.remainingUsd < need.usd) {
      throw new QuotaError(
        'insufficient_budget',
        `Only ${b.remainingUsd} USD is left under the ${b.bindingCap === 'monthly_cap' ? "key's monthly" : "organisation's daily"} cap, less than the ${need.usd} USD ${need.what()}`,
      );
    }
    return b;
  }
}

function adjust(map: Map<string, number>, id: string, usd: number): void {
  const next = roundUsd((map.get(id) ?? 0) + usd);
  if (next <= 0) map.delete(id);
  else map.set(id, next);
}
