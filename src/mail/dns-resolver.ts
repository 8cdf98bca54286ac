import type { HostResolver } from '../network/host-resolver.js';

/** Answers kept this long; SPF, DKIM and DMARC records change rarely, and every reply of a thread asks again. */
const CACHE_MS = 60_000;
const MAX_ENTRIES = 10_000;
/** Answers that say a name or record does not exist: kept like answers. Failures to ask (timeouts) are not kept. */
const DEFINITE_NEGATIVE = new Set(['ENOTFOUND', 'ENODATA']);

type Answer = { ok: true; value: unknown } | { ok: false; error: Error };

/**
 * The DNS lookups of mail (SPF, DKIM and DMARC verdicts, MX checks of sending domains), through the daemon's
 * `HostResolver` (`dns.servers`), with a small cache. `resolve` has the shape mailauth takes as its resolver (that of
 * `dns.promises.resolve`).
 */
export class MailResolver {
  private readonly cache = new Map<string, { at: number; answer: Answer }>();

  constructor(
    private readonly dns: HostResolver,
    private readonly now: () => number = Date.now,
  ) {}

  readonly resolve = (name: string, rrtype = 'A'): Promise<any> => this.lookup(name, rrtype, false);

  /** `fresh` asks the servers even when an answer is cached (a person checking a record they just published). */
  private async lookup(name: string, rrtype: string, fresh: boolean): Promise<unknown> {
    const key = `${rrtype} ${name.toLowerCase()}`;
    const cached = this.cache.get(key);
    const now = this.now();
    if (!fresh && cached !== undefined && now - cached.at < CACHE_MS) return settle(cached.answer);
    let answer: Answer;
    try {
      answer = { ok: true, value: await this.dns.records(name, rrtype) };
    } catch (err) {
      const error = err as NodeJS.ErrnoException;
      if (!DEFINITE_NEGATIVE.has(error.code ?? '')) throw error;
      answer = { ok: false, error };
    }
    if (this.cache.size >= MAX_ENTRIES) this.cache.clear();
    this.cache.set(key, { at: now, answer });
    return settle(answer);
  }

  /** MX hosts of `domain` as its servers answer now, lower case without the trailing dot, best first; none when it has no MX record. */
  async mxHosts(domain: string): Promise<string[]> {
    try {
      const records = (await this.lookup(domain, 'MX', true)) as { exchange: string; priority: number }[];
      return records.sort((a, b) => a.priority - b.priority).map((r) => r.exchange.toLowerCase().replace(/\.$/, ''));
    } catch (err) {
      if (DEFINITE_NEGATIVE.has((err as NodeJS.ErrnoException).code ?? '')) return [];
      throw err;
    }
  }
}

function settle(answer: Answer): unknown {
  if (answer.ok) return answer.value;
  throw answer.error;
}
