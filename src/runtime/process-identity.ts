import { readFileSync, readlinkSync } from 'node:fs';

/**
 * What names one process lifetime unambiguously: a pid alone does not, since pids are reused and every pid
 * namespace (each container) numbers its processes from 1. The kernel's boot id and the pid namespace say where the
 * pid counts, and the start time (clock ticks after boot) tells a process from a later one that got its pid.
 */
export interface ProcessIdentity {
  bootId: string;
  /** The pid namespace, as `readlink /proc/self/ns/pid` prints it (`pid:[4026531836]`). */
  pidNamespace: string;
  pid: number;
  /** Field 22 of /proc/<pid>/stat. */
  startTime: string;
}

export type Liveness = 'alive' | 'dead' | 'unknown';

const BOOT_ID_PATH = '/proc/sys/kernel/random/boot_id';

/**
 * This process's identity, or null where it cannot be read: not Linux, or a /proc mounted for another pid
 * namespace than this process's (then /proc/<pid> would name other processes than our pids do).
 */
export function currentProcessIdentity(): ProcessIdentity | null {
  const view = procView();
  if (view === null) return null;
  const startTime = startTimeOf(process.pid);
  return startTime === null ? null : { ...view, pid: process.pid, startTime };
}

/**
 * Whether the process `identity` describes still runs, as far as this process can prove it either way. Only a
 * process of this boot and this pid namespace can be judged: it is dead when its pid is free or held by a process
 * that started at another time, alive when its pid is held by a process that started at its start time.
 */
export function livenessOf(identity: ProcessIdentity): Liveness {
  const view = procView();
  if (view === null || view.bootId !== identity.bootId || view.pidNamespace !== identity.pidNamespace) return 'unknown';
  const startTime = startTimeOf(identity.pid);
  if (startTime !== null) return startTime === identity.startTime ? 'alive' : 'dead';
  // /proc/<pid> can be hidden (hidepid) while the process runs; only the kernel's answer to a signal proves it gone.
  try {
    process.kill(identity.pid, 0);
    return 'unknown';
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH' ? 'dead' : 'unknown';
  }
}

function procView(): { bootId: string; pidNamespace: string } | null {
  try {
    if (readlinkSync('/proc/self') !== String(process.pid)) return null;
    return { bootId: readFileSync(BOOT_ID_PATH, 'utf8').trim(), pidNamespace: readlinkSync('/proc/self/ns/pid') };
  } catch {
    return null;
  }
}

function startTimeOf(pid: number): string | null {
  if (!Number.isSafeInteger(pid) || pid <= 0) return null;
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // The command name (field 2) is in parentheses and may itself hold spaces and parentheses.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // fields[0] is field 3 (the state), so field 22 is fields[19].
  const startTime = fields[19];
  return startTime !== undefined && /^\d+$/.test(startTime) ? startTime : null;
}
