import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { openSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** A server a bench started: errandd, or the bare server it is measured against. */
export interface Child {
  proc: ChildProcess;
  /** Its stdout after the first line. */
  lines: AsyncIterableIterator<string>;
  /** What its first line said after `listening on ` (an address, or a port). */
  listening: string;
}

/** Starts `node <args>` and waits for its first stdout line, which must be `listening on <where>`. */
export async function startChild(args: string[], env: NodeJS.ProcessEnv, stderrFile?: string): Promise<Child> {
  const proc = spawn(process.execPath, args, {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', stderrFile === undefined ? 'inherit' : openSync(stderrFile, 'a')],
  });
  const lines = createInterface({ input: proc.stdout! })[Symbol.asyncIterator]();
  const exited = once(proc, 'exit').then(([code]) => {
    throw new Error(`${args.join(' ')} exited with ${code} before listening`);
  });
  const first = (await Promise.race([lines.next(), exited])) as IteratorResult<string>;
  exited.catch(() => undefined);
  const listening = /^listening on (\S+)$/.exec(first.value ?? '')?.[1];
  if (listening === undefined) throw new Error(`unexpected first line: ${first.value}`);
  return { proc, lines, listening };
}

/** Stops a child with SIGTERM and waits for it to exit. */
export async function stopChild(child: Child): Promise<void> {
  if (child.proc.exitCode !== null) return;
  const done = once(child.proc, 'exit');
  child.proc.kill('SIGTERM');
  await done;
}
