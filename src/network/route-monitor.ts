import { spawn, type ChildProcess } from 'node:child_process';
import type { Socket } from 'node:net';
import type { Logger } from 'pino';

export interface RouteMonitorOptions {
  logger: Logger;
  /**
   * Told once a burst of route changes has settled, and a while after watching started or restarted: `ip` takes a
   * moment to subscribe, and a change made meanwhile is reported by nothing else.
   */
  onChange: () => void;
}

/** One route change prints several lines (the route, its local and broadcast entries); they are read as one. */
const SETTLE_MS = 200;
const RESTART_MS = 5_000;
/** Long enough for `ip` to have subscribed to route changes, even on a loaded host. */
const SUBSCRIBED_MS = 1_000;

/** Watches the host's routes of both families with `ip monitor route`, as they change. */
export class RouteMonitor {
  private monitor: ChildProcess | undefined;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  private constructor(private readonly options: RouteMonitorOptions) {}

  static start(options: RouteMonitorOptions): RouteMonitor {
    const monitor = new RouteMonitor(options);
    monitor.watch();
    return monitor;
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    this.monitor?.kill();
  }

  private watch(): void {
    // A daemon that dies without closing leaves this monitor behind until the next route change, when its write
    // finds no reader and ends it. It never keeps the daemon alive: one that fails to start exits as it would without.
    const monitor = spawn('ip', ['monitor', 'route'], { stdio: ['ignore', 'pipe', 'ignore'] });
    this.monitor = monitor;
    monitor.unref();
    (monitor.stdout as Socket).unref();
    monitor.stdout.on('data', () => this.settle());
    monitor.once('spawn', () => {
      this.timer = setTimeout(() => this.options.onChange(), SUBSCRIBED_MS).unref();
    });
    let ended = false;
    const end = (reason: unknown): void => {
      if (ended || this.closed) return;
      ended = true;
      this.options.logger.warn({ reason: String(reason) }, 'watching the host’s routes stopped; watching again shortly');
      this.timer = setTimeout(() => this.watch(), RESTART_MS).unref();
    };
    monitor.on('error', end).on('exit', (code, signal) => end(signal ?? `exit code ${code}`));
  }

  private settle(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.options.onChange(), SETTLE_MS).unref();
  }
}
