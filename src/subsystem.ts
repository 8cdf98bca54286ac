import type { Logger } from 'pino';

/**
 * One part of the daemon, as its factory builds it: the services it offers the others, and what it does when the
 * daemon starts and stops. A factory takes what it needs of the `Resources` and the sibling services it uses, by
 * name, and reaches for nothing else.
 */
export interface Subsystem<S extends object = object> {
  /** The part's name in the log, when it fails to close. */
  readonly name: string;
  readonly services: S;
  /** Begins the part's background work (timers, listeners). */
  start?(): Promise<void> | void;
  /**
   * Ends it and frees what the part holds. Called whether or not `start` ran or succeeded: a daemon that fails to
   * start is closed too.
   */
  close?(): Promise<void> | void;
}

/**
 * The daemon's parts in the order they start; they close in the reverse order, so that a part closes after every
 * part that still uses it. `close()` is idempotent; a part that fails to close is logged and the rest still close.
 */
export class SubsystemList {
  private closing: Promise<void> | null = null;

  constructor(
    private readonly parts: readonly Subsystem[],
    private readonly logger: Logger,
  ) {}

  async start(): Promise<void> {
    for (const part of this.parts) await part.start?.();
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      const failed: { name: string; err: unknown }[] = [];
      for (const part of [...this.parts].reverse()) {
        try {
          await part.close?.();
        } catch (err) {
          this.logger.error({ err, part: part.name }, `${part.name} failed to close`);
          failed.push({ name: part.name, err });
        }
      }
      if (failed.length > 0) {
        throw new AggregateError(
          failed.map((f) => f.err),
          `failed to close: ${failed.map((f) => f.name).join(', ')}`,
        );
      }
    })();
    return this.closing;
  }
}
