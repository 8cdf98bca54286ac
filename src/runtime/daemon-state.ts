import { readFileSync, rmSync } from 'node:fs';
import { replacePrivateFile } from './private-files.js';

export interface DaemonState {
  pid: number;
  url: string;
  started_at: string;
  /** `host:port` of the inbound SMTP server, when the daemon receives mail. */
  smtp?: string;
  /** Its log file, or null when it logs to its standard error (a daemon run in the foreground); absent from older daemons. */
  log?: string | null;
}

/**
 * The state file of the daemon running on a data directory, or null when none runs: a file left behind by a daemon
 * that was killed (SIGKILL, a crash) describes a process that is gone, a zombie nobody has reaped yet, or by now
 * another program with the same pid, and is treated as no daemon at all, so that `daemon status`, `start` and `stop`
 * agree the moment it died.
 */
export function readDaemonState(path: string): DaemonState | null {
  try {
    const state = JSON.parse(readFileSync(path, 'utf8')) as DaemonState;
    return isDaemon(state.pid) ? state : null;
  } catch {
    return null;
  }
}

export function writeDaemonState(path: string, state: DaemonState): void {
  replacePrivateFile(path, `${JSON.stringify(state)}\n`);
}

/** Removes the state file only if it still describes this process (a newer daemon may have replaced it). */
export function clearDaemonState(path: string, pid: number): void {
  try {
    const state = JSON.parse(readFileSync(path, 'utf8')) as DaemonState;
    if (state.pid === pid) rmSync(path, { force: true });
  } catch {
    // Already gone.
  }
}

/** Whether `pid` is a live process (not a zombie): what a stop waits for. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const stat = procFile(pid, 'stat');
  // The state follows the command name, which is in parentheses and may itself hold spaces or parentheses.
  return stat === null || stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
}

/** A live errandd: alive, and (where /proc tells) running the daemon's script rather than a program that got its pid. */
function isDaemon(pid: number): boolean {
  if (!isAlive(pid)) return false;
  const cmdline = procFile(pid, 'cmdline');
  return cmdline === null || cmdline.includes('errandd') || cmdline.includes('daemon/main');
}

/** A /proc file of a process, or null where there is no /proc (macOS) or it cannot be read. */
function procFile(pid: number, name: string): string | null {
  try {
    return readFileSync(`/proc/${pid}/${name}`, 'utf8');
  } catch {
    return null;
  }
}
