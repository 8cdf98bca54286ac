import type { Db } from './database.js';

interface Pending {
  unit: () => unknown;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

/**
 * Group commit: write units submitted in the same turn of the event loop share one transaction, each in its own
 * savepoint (a unit that throws rolls back alone and rejects alone). Promises settle only after the COMMIT, so a
 * caller that answers after awaiting never reports something that is not on disk. Under load this turns N commits
 * into one, which is most of what a write costs.
 */
export class GroupCommit {
  private queue: Pending[] = [];
  private scheduled = false;

  constructor(private readonly db: Db) {}

  run<T>(unit: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ unit, resolve: resolve as (v: unknown) => void, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    const batch = this.queue;
    this.queue = [];
    this.scheduled = false;
    const outcomes: ({ ok: true; value: unknown } | { ok: false; err: unknown })[] = [];
    try {
      this.db
        .transaction(() => {
          for (const p of batch) {
            try {
              outcomes.push({ ok: true, value: this.db.transaction(p.unit)() });
            } catch (err) {
              outcomes.push({ ok: false, err });
            }
          }
        })
        .immediate();
    } catch (err) {
      for (const p of batch) p.reject(err);
      return;
    }
    batch.forEach((p, i) => {
      const o = outcomes[i]!;
      if (o.ok) p.resolve(o.value);
      else p.reject(o.err);
    });
  }
}
