import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { readDaemonState } from '../src/runtime/daemon-state.js';
import { dataPaths } from '../src/runtime/paths.js';
import { startChild, stopChild, type Child } from './child-process.js';
import { firstKey } from './first-key.js';

const ERRANDD = fileURLToPath(new URL('../bin/errandd', import.meta.url));

export interface ErranddOptions {
  /** The data directory; by default a fresh one, removed by `stopErrandd`. */
  home?: string;
  /** Settings and keys on top of the benches' defaults (no model key, the local sandbox, no request limits). */
  env?: Record<string, string>;
  /** `--dev`: loopback callbacks and webhook targets. */
  dev?: boolean;
  /** The file in the data directory that takes errandd's stderr, its log. */
  logFile?: string;
  /** Wait for the inbound SMTP server's port (the daemon must be configured to receive mail). */
  smtp?: boolean;
}

/** The compiled daemon, started by a bench. */
export interface Errandd extends Child {
  url: string;
  home: string;
  /** The first key of the default organisation on a first start; null when the data directory had been started before. */
  key: string | null;
  /** Where its log goes. */
  log: string;
  /** The inbound SMTP port, when asked for. */
  smtpPort: number | null;
  /** Whether `stopErrandd` removes the data directory (it made it). */
  ownsHome: boolean;
}

/**
 * Starts `bin/errandd` (so build first) the one way every bench does: on a data directory of its own, without a
 * model key (runs fail at once unless `env` points it at a model), on the local sandbox driver, with the limits
 * that would refuse a benchmark lifted, its log in a file of the data directory; then reads the address, and on a
 * first start the key from the first-start notice.
 */
export async function startErrandd(options: ErranddOptions = {}): Promise<Errandd> {
  const ownsHome = options.home === undefined;
  const home = options.home ?? mkdtempSync(join(tmpdir(), 'errand-bench-'));
  const firstStart = !existsSync(dataPaths(home).database);
  const log = join(home, options.logFile ?? 'errandd.log');
  const child = await startChild(
    [ERRANDD, '--port', '0', '--home', home, ...(options.dev === true ? ['--dev'] : [])],
    {
      ...process.env,
      ERRAND_HOME: home,
      ANTHROPIC_API_KEY: '',
      OPENAI_API_KEY: '',
      ERRAND_SANDBOX_DRIVER: 'local',
      ERRAND_LIMITS_MAX_PENDING_RUNS: '1000000',
      ERRAND_LIMITS_REQUESTS_PER_MINUTE: '1000000',
      ...options.env,
    },
    log,
  );
  const key = firstStart ? await firstKey(child.lines) : null;
  const smtpPort = options.smtp === true ? await smtpPortOf(home, child) : null;
  return { ...child, url: child.listening, home, key, log, smtpPort, ownsHome };
}

/** Stops the daemon (SIGTERM, waiting for it to exit) and removes the data directory it was started on, if it made it. */
export async function stopErrandd(d: Errandd): Promise<void> {
  await stopChild(d);
  if (d.ownsHome) rmSync(d.home, { recursive: true, force: true });
}

/** The key of a first start, which a bench that started the daemon on a fresh data directory can count on. */
export function keyOf(d: Errandd): string {
  if (d.key === null) throw new Error(`errandd started on ${d.home}, which it had served before: it printed no key`);
  return d.key;
}

/** The SMTP port from the daemon's state file, which it writes once its servers listen. */
async function smtpPortOf(home: string, child: Child): Promise<number> {
  for (let i = 0; i < 400; i++) {
    const state = readDaemonState(dataPaths(home).daemonState);
    if (state !== null && state.pid === child.proc.pid && state.smtp !== undefined) return Number(state.smtp.split(':').at(-1));
    if (child.proc.exitCode !== null) break;
    await sleep(25);
  }
  throw new Error(`errandd on ${home} reported no SMTP port; is mail.relay_domain set?`);
}
