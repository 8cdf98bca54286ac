import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';

/**
 * The user task code runs as, when it is not the supervisor's own (`--run-as UID:GID`, in the sandbox image): then
 * code cannot read the supervisor's memory, environment or descriptors, where its token lives. Everything the
 * sandbox does on behalf of the task (code, Chromium, workspace files) runs as this user, so that it can touch what
 * the task could, and nothing else. Null when the supervisor and the task share a user (the local driver).
 */
export type TaskUser = { uid: number; gid: number } | null;

export function parseTaskUser(spec: string | undefined): TaskUser {
  if (spec === undefined) return null;
  const match = /^(\d+):(\d+)$/.exec(spec);
  if (match === null) throw new Error(`--run-as must be UID:GID, not ${spec}`);
  const user = { uid: Number(match[1]), gid: Number(match[2]) };
  if (user.uid === process.getuid?.()) throw new Error(`--run-as ${spec} is the supervisor's own user; task code must run as another`);
  return user;
}

/** `spawn`, as the task user. */
export function spawnAs(user: TaskUser, command: string, args: readonly string[], options: SpawnOptions): ChildProcess {
  return spawn(command, args, user === null ? options : { ...options, uid: user.uid, gid: user.gid });
}

/** Runs a short command as the task user; resolves with its stdout, rejects with its stderr when it fails. */
export function runAs(user: TaskUser, command: string, args: readonly string[]): Promise<string> {
  const child = spawnAs(user, command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => {
      if (code === 0) resolve(stdout);
      else reject(new Error(`${command} failed (${signal ?? `exit code ${code}`}): ${stderr.trim()}`));
    });
  });
}
