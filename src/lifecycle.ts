/**
 * A status column's lifecycle: its transition table, and the checked moves that the store's compare-and-set
 * statements take. A store method that changes a status accepts only a `StatusMove`, and only `Lifecycle.move`
 * makes one, so no status changes without passing the table; the statement writes `to` only where the row is still
 * in `from` (`WHERE status = @from`), so two writers that read the same row cannot both move it.
 */

/** Each status, and the statuses it may move to. A status that may be written again (a retry) lists itself. */
export type TransitionTable<S extends string> = { readonly [K in S]: readonly S[] };

declare const checked: unique symbol;

/** A move the table allows. Made only by `Lifecycle.move`. */
export interface StatusMove<S extends string> {
  readonly from: S;
  readonly to: S;
  readonly [checked]: true;
}

export class Lifecycle<S extends string> {
  constructor(
    /** What the statuses belong to, as the error names it: `run`, `email`, `webhook delivery`. */
    readonly subject: string,
    readonly table: TransitionTable<S>,
  ) {}

  canMove(from: S, to: S): boolean {
    return this.table[from].includes(to);
  }

  /** The move from `from` to `to`; throws `IllegalTransitionError` when the table has no such move. */
  move(from: S, to: S): StatusMove<S> {
    if (!this.canMove(from, to)) throw new IllegalTransitionError(this.subject, from, to);
    return { from, to } as StatusMove<S>;
  }
}

/** A move the table does not have: a mistake in the code asking for it, never something a caller can correct. */
export class IllegalTransitionError extends Error {
  constructor(
    readonly subject: string,
    readonly from: string,
    readonly to: string,
  ) {
    super(`a ${subject} cannot go from ${from} to ${to}`);
    this.name = 'IllegalTransitionError';
  }
}
