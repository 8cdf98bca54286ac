import { once } from 'node:events';
import { dirname } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { runAs, spawnAs, type TaskUser } from './task-user.js';

/** Only regular files: a pipe the task made in the workspace would otherwise hold the request open for ever. */
const READ_REGULAR_FILE = 'test -f "$1" && exec cat -- "$1"';
const WRITE_REGULAR_FILE = 'if test -e "$1" && ! test -f "$1"; then echo "$1 is not a regular file" >&2; exit 1; fi; exec tee -- "$1"';

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
    const child = spawnAs(this.user, 'sh', ['-c', WRITE_REGULAR_FILE, 'sh', path], { stdio: ['pipe', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const closed = once(child, 'close') as Promise<[number | null, NodeJS.Signals | null]>;
    // Awaited below; until then a failure to start must not count as unhandled.
    closed.catch(() => undefined);
    let bodyFailure: unknown;
    try {
      await pipeline(body, child.stdin!);
    } catch (error) {
      bodyFailure = error;
      child.kill('SIGKILL');
    }
    const [code, signal] = await closed;
    if (code === 0 && bodyFailure === undefined) return;
    if (signal === 'SIGKILL') await runAs(this.user, 'rm', ['-f', '--', path]).catch(() => undefined);
    // The writer's own refusal (not a regular file, no permission) says more than the broken pipe it left behind.
    if (code !== null && code !== 0) throw new Error(`writing the file failed: ${stderr.trim()}`);
    throw bodyFailure;
  }

  /** The file's content as a stream, or null when the task user cannot read a file there. */
  async read(path: string): Promise<Readable | null> {
    const child = spawnAs(this.user, 'sh', ['-c', READ_REGULAR_FILE, 'sh', path], { stdio: ['ignore', 'pipe', 'ignore'] });
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
