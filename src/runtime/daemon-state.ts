import { readFileSync, rmSync, writeFileSync } from 'node:fs';

export interface DaemonState {
  pid: number;
  url: string;
  started_at: string;
  /** `host:port` of the inbound SMTP server, when the daemon receives mail. */
  smtp?: string;
}

export function readDaemonState(path: string): DaemonState | null {
  try {
    const state = JSON.parse(readFileSync(path, 'utf8')) as DaemonState;
    return isAlive(state.pid) ? state : null;
  } catch {
    return null;
  }
}

export function writeDaemonState(path: string, state: DaemonState): void {
  writeFileSync(path, `${JSON.stringify(state)}\n`, { mode: 0o644 });
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

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
