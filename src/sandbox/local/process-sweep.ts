import { readdir, readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';

/** Set in the environment of a local sandbox's supervisor, and so inherited by everything it starts. */
export const SANDBOX_MARKER_VARIABLE = 'ERRAND_SANDBOX_ID';

/**
 * Kills every process whose environment carries this sandbox's marker: Chromium and code started by a supervisor
 * live in process groups of their own, and outlive it if it is killed. The marker is checked rather than a
 * recorded pid, which after a restart may belong to an unrelated process. Linux only (reads /proc); elsewhere it
 * finds nothing. Returns how many processes it signalled, once they are dead: a SIGKILL is delivered
 * asynchronously, and a process still running could write into a directory being removed.
 */
export async function killMarkedProcesses(sandboxId: string): Promise<number> {
  const marker = Buffer.from(`${SANDBOX_MARKER_VARIABLE}=${sandboxId}\0`);
  const entries = await readdir('/proc').catch(() => [] as string[]);
  const killed: number[] = [];
  for (const entry of entries) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    const environ = await readFile(`/proc/${pid}/environ`).catch(() => null);
    if (environ === null || !hasVariable(environ, marker)) continue;
    try {
      process.kill(pid, 'SIGKILL');
      killed.push(pid);
    } catch {
      // Exited meanwhile.
    }
  }
  await Promise.all(killed.map((pid) => untilDead(pid)));
  return killed.length;
}

/** Waits, for a bounded time, until a signalled process has exited (gone, or a zombie waiting for its parent). */
async function untilDead(pid: number): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
    if (stat === null || (stat.split(') ')[1] ?? '').startsWith('Z')) return;
    await sleep(10);
  }
}

function hasVariable(environ: Buffer, marker: Buffer): boolean {
  for (let at = environ.indexOf(marker); at !== -1; at = environ.indexOf(marker, at + 1)) {
    if (at === 0 || environ[at - 1] === 0) return true;
  }
  return false;
}
