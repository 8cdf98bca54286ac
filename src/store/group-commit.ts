import type Database from 'better-sqlite3';
import type { Db } from './database.js';
import { UnitOfWork } from './unit-of-work.js';

interface Pending {
  unit: (uow: UnitOfWork) => unknown;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

type Outcome = { ok: true; value: unknown; uow: UnitOfWork } | { ok: false; err: unknown };

/** Thrown inside the group's transaction to roll it back: a unit failed after it had written. */
class UnitFailedAfterWriting {}

/**
 * Group commit: write units submitted in the same turn of the event loop share one transaction, so that under
 * load N commits become one, which is most of what a write costs. Promises settle only after the COMMIT, so a
 * caller that answers after awaiting never reports something that is not on disk. Each unit gets its own
 * `UnitOfWork`, whose after-commit work runs after the COMMIT and before the unit's promise settles.
 *
 * A unit that refuses (throws) must do so before it writes: it is then rejected alone and the others commit.
 * Units run without a savepoint each, because a savepoint journals every page its unit changes, a cost that showed
 * in every run's creation. Should a unit throw after writing anyway (a bug, a full disk), the whole group
 * is rolled back and every unit runs again in a transaction of its own, so that its failure stays its own.
 */
export class GroupCommit {
  private queue: Pending[] = [];
  private scheduled = false;
  private readonly totalChanges: Database.Statement<[], number>;

  constructor(private readonly db: Db) {
    this.totalChanges = db.prepare<[], number>('SELECT total_changes()').pluck();
  }

  run<T>(unit: (uow: UnitOfWork) => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ unit: unit as (uow: UnitOfWork) => unknown, resolve: resolve as (v: unknown) => void, reject });
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
    let outcomes: Outcome[];
    try {
      outcomes = this.db.transaction(() => batch.map((p) => this.runUnit(p))).immediate();
    } catch (err) {
      if (err instanceof UnitFailedAfterWriting) this.runAlone(batch);
      else for (const p of batch) p.reject(err);
      return;
    }
    batch.forEach((p, i) => settle(p, outcomes[i]!));
  }

  private runUnit(p: Pending): Outcome {
    const before = this.totalChanges.get();
    const uow = new UnitOfWork();
    try {
      return { ok: true, value: p.unit(uow), uow };
    } catch (err) {
      if (this.totalChanges.get() !== before) throw new UnitFailedAfterWriting();
      return { ok: false, err };
    }
  }

  private runAlone(batch: Pending[]): void {
    for (const p of batch) {
      let outcome: Outcome;
      const uow = new UnitOfWork();
      try {
        outcome = { ok: true, value: this.db.transaction(() => p.unit(uow)).immediate(), uow };
      } catch (err) {
        outcome = { ok: false, err };
      }
      settle(p, outcome);
    }
  }
}

function settle(p: Pending, outcome: Outcome): void {
  if (!outcome.ok) return p.reject(outcome.err);
  try {
    outcome.uow.committed();
  } catch (err) {
    // What was committed stays committed; a listener's failure is the caller's to hear about.
    return p.reject(err);
  }
  p.resolve(outcome.value);
}
