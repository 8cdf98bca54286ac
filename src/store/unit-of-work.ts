/**
 * An open write transaction, handed to everything that writes inside it, and the work to do once it has committed
 * (typically announcing events). Only `Store` makes one, when it opens a transaction: a store method that takes a
 * `UnitOfWork` can therefore only be called inside one, and never opens a transaction of its own.
 */
export class UnitOfWork {
  private readonly afterCommitQueue: (() => void)[] = [];

  /** Runs `fn` once the transaction has committed; never when it rolls back. */
  afterCommit(fn: () => void): void {
    this.afterCommitQueue.push(fn);
  }

  /** Called by the store after COMMIT. */
  committed(): void {
    for (const fn of this.afterCommitQueue.splice(0)) fn();
  }
}
