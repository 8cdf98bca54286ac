import { once } from 'node:events';
import { dirname } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { runAs, spawnAs, type TaskUser } from './task-user.js';

/**
 * Reads and writes workspace files as the task user, through `cat` and `tee` started as that user: a path the task
 * controls (a symbolic link, say) then reaches nothing the task could not reach itself, and files the daemon puts
 * there belong to the task. Paths are absolute and already checked to lie inside the workspace.
 */
export class WorkspaceFiles {
  constructor(private readonly user: TaskUser) {}

  /** Writes `body` to `path`, making its directories; a body that fails half-way leaves no file. */
  async write(path: string, body: AsyncIterable<Buffer>): Promise<void> {
    await runAs(this.user, 'mkdir', ['-p', '--', dirname(path)]);
    const child = spawnAs(this.user, 'tee', ['--', path], { stdio: ['pipe', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const closed = once(child, 'close') as Promise<[number | null, NodeJS.Signals | null]>;
    // Awaited below; until then a failure to start must not count as unhandled.
    closed.catch(() => undefined);
    try {
      await pipeline(body, child.stdin!);
    } catch (error) {
      child.kill('SIGKILL');
      await closed;
      await runAs(this.user, 'rm', ['-f', '--', path]).catch(() => undefined);
      throw error;
    }
    const [code] = await closed;
    if (code !== 0) throw new Error(`writing the file failed: ${stderr.trim()}`);
  }

  /** The file's content as a stream, or null when the task user cannot read a file there. */
  async read(path: string): Promise<Readable | null> {
    const child = spawnAs(this.user, 'cat', ['--', path], { stdio: ['ignore', 'pipe', 'ignore'] });
    const stdout = child.stdout!;
    const closed = once(child, 'close') as Promise<[number | null, NodeJS.Signals | null]>;
    // The answer's status depends on whether cat could open the file, which its first output or its exit tells.
    const first = await new Promise<Buffer | 'empty' | 'failed'>((resolve) => {
      const onData = (chunk: Buffer): void => {
        stdout.pause();
        stdout.off('data', onData);
        resolve(chunk);
      };
      stdout.on('data', onData);
      void closed.then(([code]) => resolve(code === 0 ? 'empty' : 'failed'), () => resolve('failed'));
    });
    if (first === 'failed') return null;
    if (first === 'empty') return Readable.from([]);
    return Readable.from(
      (async function* () {
        yield first;
        yield* stdout;
        const [code, signal] = await closed;
        if (code !== 0) throw new Error(`reading the file failed (${signal ?? `exit code ${code}`})`);
      })(),
    );
  }
}
