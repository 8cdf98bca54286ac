import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync, statSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Command } from 'commander';
import { readDaemonState, type DaemonState } from '../../../src/runtime/daemon-state.js';
import { dataPaths } from '../../../src/runtime/paths.js';
import { UserError } from '../../cli-errors.js';
import { contextOf, type CliContext } from '../../context.js';
import { examples } from '../../help.js';
import { announcementOf } from './announcement.js';
import { addDaemonFlags, daemonFlagsOf, erranddArgs, type DaemonFlags } from './daemon-flags.js';
import { daemonLogFile } from './log-file.js';

const START_TIMEOUT_MS = 30_000;

export interface DaemonStarted {
  pid: number;
  url: string;
  log: string;
  /** On a data directory's first start: the organisation and key the daemon created (shown once). */
  first_start: { org_id: string | null; key: string } | null;
  /** Where its SMTP server takes mail (`host:port`), or null when it receives none. */
  smtp: string | null;
  /** What errandd warned about as it started (no model provider). */
  warnings: string[];
}

export function registerDaemonStart(daemon: Command): void {
  addDaemonFlags(daemon.command('start').description('start errandd in the background (log: <home>/errandd.log) and print its address')).addHelpText('after', examples('errand daemon start', 'errand daemon start --port 7371 --json')).action(
    async (flags: Parameters<typeof daemonFlagsOf>[0], cmd: Command) => {
      await startDaemon(contextOf(cmd), daemonFlagsOf(flags));
    },
  );
}

/**
 * Starts a detached errandd and waits until it has written its state file (it is listening) or has died. Its log
 * (stderr) goes to the log file; its stdout, which on a first start carries the freshly minted key, is read here
 * and shown to the user instead, so the key never lands in a log file.
 */
export async function startDaemon(ctx: CliContext, flags: DaemonFlags): Promise<DaemonStarted> {
  const paths = dataPaths(ctx.home);
  const running = readDaemonState(paths.daemonState);
  if (running) throw new UserError(`a daemon already runs on ${ctx.home}: pid ${running.pid} at ${running.url}`);
  mkdirSync(ctx.home, { recursive: true, mode: 0o700 });
  // The daemon writes its log itself, rotating it (log.file); its stderr goes to the same file, for what Node
  // itself prints if the process dies before its logger exists.
  const log = daemonLogFile(ctx.home, ctx.env, setFlags(flags.set));
  const daemonFlags = log.configured ? flags : { ...flags, set: [...flags.set, `log.file=${log.path}`] };
  const logStart = sizeOf(log.path);
  const logFd = openSync(log.path, 'a', 0o600);
  const child = spawn(process.execPath, erranddArgs(ctx.home, daemonFlags), { detached: true, stdio: ['ignore', 'pipe', logFd], env: ctx.env });
  closeSync(logFd);
  let stdout = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  let exited: number | null = null;
  child.once('exit', (code, signal) => (exited = code ?? (signal ? 1 : 0)));

  const deadline = Date.now() + START_TIMEOUT_MS;
  let state: DaemonState | null = null;
  while (state === null) {
    if (exited !== null) throw new UserError(`errandd exited with code ${exited} before listening:\n${logSince(log.path, logStart)}`);
    if (Date.now() > deadline) {
      child.kill('SIGTERM');
      throw new UserError(`errandd did not start listening within ${START_TIMEOUT_MS / 1000} s; see ${log.path}`);
    }
    await sleep(50);
    const seen = readDaemonState(paths.daemonState);
    if (seen?.pid === child.pid) state = seen;
  }
  // errandd prints its announcements before it writes the state file, so they are all in the pipe by now; it
  // writes nothing to stdout after them, which is what makes closing our end safe.
  while (!/listening on \S+\n/.test(stdout) && Date.now() < deadline) await sleep(20);
  await sleep(50);
  child.stdout!.destroy();
  child.unref();

  const warnings = stdout.split('\n').filter((l) => l.startsWith('WARNING: ')).map((l) => l.slice('WARNING: '.length));
  const started: DaemonStarted = { pid: state.pid, url: state.url, log: log.path, first_start: announcementOf(stdout)?.first_start ?? null, smtp: state.smtp ?? null, warnings };
  ctx.out.result(started, () => {
    ctx.out.line(state.url);
    ctx.out.note(`errandd started (pid ${started.pid}); log: ${started.log}`);
    // errandd's own words: they name the relay domain too.
    const receiving = stdout.split('\n').find((l) => l.startsWith('receiving mail '));
    if (receiving !== undefined) ctx.out.note(receiving);
    if (started.first_start) {
      ctx.out.note(`first start: created organisation "default" (${started.first_start.org_id}) and its first API key, shown once and saved for the CLI:`);
      ctx.out.line(started.first_start.key);
    }
    for (const warning of warnings) ctx.out.warn(warning);
  });
  return started;
}

function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

function logSince(path: string, offset: number): string {
  try {
    const text = readFileSync(path, 'utf8').slice(offset).trim();
    return text.split('\n').slice(-20).join('\n');
  } catch {
    return '(no log)';
  }
}

/** `--set key=value` pairs as configuration flags (errandd reports malformed ones). */
function setFlags(pairs: string[]): Record<string, unknown> {
  const flags: Record<string, unknown> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq > 0) flags[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return flags;
}
