import type { Logger } from 'pino';
import { InvalidRequestError, RateLimitError } from '../errors.js';
import type { EventBus } from '../events.js';
import { HeldByPrincipal, type Holder } from '../keys/held-by-principal.js';
import { isTerminal, type RunStatus } from '../vocabulary/run-status.js';
import type { EventLog, LoggedEvent } from './event-log.js';
import { isRunEndEvent } from './event-catalogue.js';

/** Events read from the log per query; a stream further behind reads again on the next turn. */
const BATCH = 100;
/** When a caller at its stream limit may try again: one of its streams may have closed by then. */
const STREAM_RETRY_S = 60;

/** One open stream's connection, as the stream sees it. */
export interface EventSink {
  /**
   * Writes one event. Answers false when the connection's buffer is full: the stream then writes nothing more
   * until `EventStream.resume()`, and reads the rest from the log, so a client that stops reading costs the
   * daemon one buffer, never the events it has not taken.
   */
  send(event: LoggedEvent): boolean;
  /** A comment that keeps proxies from closing an idle stream. */
  heartbeat(): void;
  /** Ends the response: the run's stream is over, or the daemon is stopping. */
  end(): void;
}

/** What the route holds of an open stream. */
export interface EventStream {
  /** The connection's buffer has drained: write what the log holds beyond what was sent. */
  resume(): void;
  /** The client went away. */
  close(): void;
}

export interface EventStreamsOptions {
  log: EventLog;
  events: EventBus;
  /** How often each stream gets a heartbeat, and looks for events other processes appended. */
  heartbeatMs: number;
  /** A run's status in an organisation; throws the 404 for a run the organisation does not have. */
  runStatus: (orgId: string, runId: string) => RunStatus;
  /** Streams one API key may hold open (`events.streams_per_key`), and one organisation (`events.streams_per_org`). */
  streamsPerKey: number;
  streamsPerOrg: number;
  logger: Logger;
}

type Read = (after: number, limit: number) => LoggedEvent[];

class Subscriber {
  /** Waiting for the connection to drain. */
  blocked = false;
  /** Further behind than one read: reads for itself until it is caught up. */
  catchingUp = true;
  /**
   * Events its next read of its own takes: one after its connection filled up, doubling while it keeps up, so
   * that a slow client does not make the daemon read events it cannot take.
   */
  readLimit = BATCH;
  closed = false;

  constructor(
    /** Where the stream is listed: the organisation's streams or the run's, under `key`. */
    readonly index: Map<string, Set<Subscriber>>,
    readonly key: string,
    /** The caller whose limits the stream counts against. */
    readonly holder: Holder,
    readonly sink: EventSink,
    /** The id of the last event sent (or the one to resume after). */
    public cursor: number,
    readonly read: Read,
    /** Set on a run's stream, which its end event ends; `over` when the run had already ended when it opened. */
    readonly run: { over: boolean } | null,
  ) {}
}

/**
 * The live event streams (`GET /v1/events`, `GET /v1/runs/{id}/events`). Streams read the durable event log, never
 * a buffer of their own: each keeps only a cursor (the last id it sent), writes while its connection takes data,
 * and when the connection is full simply stops, to read on from its cursor once it drains. A reconnecting
 * client's `Last-Event-ID` is such a cursor, so a restart of the daemon loses nothing.
 *
 * When `wake.event_logged` announces new events, streams of the same organisation (or run) that are caught up share one
 * read per event-loop turn; a stream further behind reads for itself. A heartbeat timer writes a comment to each
 * stream and reads the log again, which also delivers events appended by another process on the data directory.
 */
export class EventStreams {
  private readonly byOrg = new Map<string, Set<Subscriber>>();
  private readonly byRun = new Map<string, Set<Subscriber>>();
  /** Every open stream, by the key and the organisation that opened it (issue 21: one key held 920). */
  private readonly held = new HeldByPrincipal<Subscriber>();
  private readonly pendingOrgs = new Set<string>();
  private readonly pendingRuns = new Set<string>();
  private flushScheduled = false;
  private timer: NodeJS.Timeout | null = null;
  private unsubscribe: (() => void) | null = null;
  private closed = false;

  constructor(private readonly o: EventStreamsOptions) {}

  start(): void {
    if (this.unsubscribe !== null || this.closed) return;
    this.unsubscribe = this.o.events.on('wake.event_logged', ({ orgId, runId }) => {
      const forOrg = this.byOrg.has(orgId);
      const forRun = runId !== null && this.byRun.has(runId);
      if (forOrg) this.pendingOrgs.add(orgId);
      if (forRun) this.pendingRuns.add(runId);
      // Most events have no stream open to them: no turn is spent looking.
      if (forOrg || forRun) this.scheduleFlush();
    });
    this.timer = setInterval(() => this.beat(), this.o.heartbeatMs);
    this.timer.unref();
  }

  /** Ends every stream (clients reconnect with Last-Event-ID to the next daemon). Safe to call repeatedly. */
  close(): void {
    this.closed = true;
    this.unsubscribe?.();
    if (this.timer !== null) clearInterval(this.timer);
    for (const subs of [...this.byOrg.values(), ...this.byRun.values()]) for (const sub of subs) this.end(sub);
  }

  /** Number of open streams. */
  get size(): number {
    return this.held.size;
  }

  /**
   * The organisation's stream: the events after `lastEventId`, then live ones; without one, only those that happen
   * from now on. Throws 429 when the caller's key or organisation holds as many streams as it may.
   */
  openOrg(caller: Holder, lastEventId: number | null, makeSink: () => EventSink): EventStream {
    const orgId = caller.orgId;
    const read: Read = (after, limit) => this.o.log.orgEvents(orgId, after, limit);
    this.admit(caller);
    return this.add(new Subscriber(this.byOrg, orgId, caller, makeSink(), lastEventId ?? this.o.log.lastId(), read, null));
  }

  /**
   * A run's stream: its events after `lastEventId` (from its first without one), then live ones, ending with the
   * run's end event (`run.completed`, `run.failed`, `run.cancelled`). Null, and no sink is made, when the run has
   * ended and nothing is left to send: the client has seen it all. Throws 429 as `openOrg` does.
   */
  openRun(caller: Holder, runId: string, lastEventId: number | null, makeSink: () => EventSink): EventStream | null {
    const over = isTerminal(this.o.runStatus(caller.orgId, runId));
    const after = lastEventId ?? 0;
    const read: Read = (from, limit) => this.o.log.runEvents(runId, from, limit);
    if (over && (read(after, 1).length === 0 || this.sentEnd(runId, after))) return null;
    this.admit(caller);
    return this.add(new Subscriber(this.byRun, runId, caller, makeSink(), after, read, { over }));
  }

  /** Refuses a stream beyond the caller's limits, before anything is written to its connection. */
  private admit(caller: Holder): void {
    const limits = [
      { open: this.held.ofKey(caller.keyId).size, limit: this.o.streamsPerKey, whose: 'This API key', key: 'events.streams_per_key' },
      { open: this.held.ofOrg(caller.orgId).size, limit: this.o.streamsPerOrg, whose: 'This organisation', key: 'events.streams_per_org' },
    ];
    const reached = limits.find((l) => l.open >= l.limit);
    if (reached === undefined) return;
    throw new RateLimitError(
      'too_many_streams',
      `${reached.whose} has ${reached.open} event streams open, the most ${reached.key} allows (${reached.limit}); close one, then retry`,
      STREAM_RETRY_S,
    );
  }

  /** Whether the run's end event is at or before `after`: a client that has it has seen the whole run. */
  private sentEnd(runId: string, after: number): boolean {
    for (let from = 0; ; ) {
      const events = this.o.log.runEvents(runId, from, BATCH);
      for (const e of events) {
        if (e.id > after) return false;
        if (isRunEndEvent(e.type)) return true;
      }
      if (events.length < BATCH) return false;
      from = events.at(-1)!.id;
    }
  }

  private add(sub: Subscriber): EventStream {
    // A stream opened while the daemon stops ends at once; its client reconnects to the next daemon.
    if (this.closed) setImmediate(() => sub.sink.end());
    let subs = sub.index.get(sub.key);
    if (subs === undefined) sub.index.set(sub.key, (subs = new Set()));
    subs.add(sub);
    this.held.add(sub.holder, sub);
    setImmediate(() => this.catchUp(sub));
    return {
      resume: () => {
        if (sub.closed || !sub.blocked) return;
        sub.blocked = false;
        sub.catchingUp = true;
        this.catchUp(sub);
      },
      close: () => this.remove(sub),
    };
  }

  /** Takes the stream out of every list, so that its place counts no more; the client's close calls it too. */
  private remove(sub: Subscriber): void {
    sub.closed = true;
    const subs = sub.index.get(sub.key);
    if (subs?.delete(sub) && subs.size === 0) sub.index.delete(sub.key);
    this.held.delete(sub.holder, sub);
  }

  private end(sub: Subscriber): void {
    if (sub.closed) return;
    this.remove(sub);
    try {
      sub.sink.end();
    } catch (err) {
      this.o.logger.debug({ err }, 'could not end an event stream');
    }
  }

  private scheduleFlush(): void {
    if (this.flushScheduled || this.closed) return;
    this.flushScheduled = true;
    setImmediate(() => {
      this.flushScheduled = false;
      this.flush();
    });
  }

  private flush(): void {
    const orgs = [...this.pendingOrgs];
    const runs = [...this.pendingRuns];
    this.pendingOrgs.clear();
    this.pendingRuns.clear();
    for (const orgId of orgs) if (this.shareRead(this.byOrg.get(orgId))) this.pendingOrgs.add(orgId);
    for (const runId of runs) if (this.shareRead(this.byRun.get(runId))) this.pendingRuns.add(runId);
    if (this.pendingOrgs.size > 0 || this.pendingRuns.size > 0) this.scheduleFlush();
  }

  /**
   * One read for the caught-up streams of one organisation or run, from the earliest of their cursors. Answers
   * true when the read was full, so there may be more.
   */
  private shareRead(subs: Set<Subscriber> | undefined): boolean {
    if (subs === undefined) return false;
    const ready = [...subs].filter((s) => !s.blocked && !s.catchingUp);
    if (ready.length === 0) return false;
    const from = Math.min(...ready.map((s) => s.cursor));
    const events = ready[0]!.read(from, BATCH);
    for (const sub of ready) this.write(sub, events);
    return events.length === BATCH;
  }

  /** Reads for one stream until it is caught up, its connection is full, or it ends; a turn per read. */
  private catchUp(sub: Subscriber): void {
    if (sub.closed || sub.blocked || this.closed) return;
    let events: LoggedEvent[];
    const limit = sub.readLimit;
    try {
      events = sub.read(sub.cursor, limit);
    } catch (err) {
      this.o.logger.error({ err }, 'could not read the event log for a stream');
      this.end(sub);
      return;
    }
    this.write(sub, events);
    if (sub.closed || sub.blocked) return;
    if (events.length === limit) {
      sub.readLimit = Math.min(BATCH, limit * 2);
      setImmediate(() => this.catchUp(sub));
      return;
    }
    sub.catchingUp = false;
    if (sub.run?.over) this.end(sub);
  }

  private write(sub: Subscriber, events: readonly LoggedEvent[]): void {
    for (const event of events) {
      if (sub.closed) return;
      if (event.id <= sub.cursor) continue;
      let more: boolean;
      try {
        more = sub.sink.send(event);
      } catch (err) {
        this.o.logger.debug({ err }, 'an event stream could not be written; closing it');
        this.end(sub);
        return;
      }
      sub.cursor = event.id;
      if (sub.run !== null && isRunEndEvent(event.type)) {
        this.end(sub);
        return;
      }
      if (!more) {
        sub.blocked = true;
        sub.readLimit = 1;
        return;
      }
    }
  }

  private beat(): void {
    for (const subs of [...this.byOrg.values(), ...this.byRun.values()]) {
      for (const sub of subs) {
        if (sub.blocked || sub.closed) continue;
        try {
          sub.sink.heartbeat();
        } catch {
          this.end(sub);
        }
      }
    }
    for (const orgId of this.byOrg.keys()) this.pendingOrgs.add(orgId);
    for (const runId of this.byRun.keys()) this.pendingRuns.add(runId);
    this.scheduleFlush();
  }
}

/** The `Last-Event-ID` header: an event id (a non-negative integer), or null when absent. */
export function parseLastEventId(header: string | string[] | undefined): number | null {
  if (header === undefined) return null;
  const value = Array.isArray(header) ? header.at(-1)! : header;
  if (!/^\d{1,15}$/.test(value.trim())) {
    throw new InvalidRequestError('invalid_request', `Last-Event-ID must be the id of an event (a whole number), got '${value.slice(0, 40)}'`, { param: 'Last-Event-ID' });
  }
  return Number(value.trim());
}
