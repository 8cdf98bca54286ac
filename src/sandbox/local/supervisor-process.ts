import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Logger } from 'pino';
import type { SupervisorHandover } from '../protocol.js';
import { SandboxError } from '../sandbox-error.js';

export interface StartSupervisorOptions {
  supervisorPath: string;
  workspace: string;
  chromiumPath: string;
  /** The supervisor's own environment. */
  env: Record<string, string>;
  /** The token and the run's environment, written as the first line of the supervisor's stdin. */
  handover: SupervisorHandover;
  logger: Logger;
  timeoutMs: number;
  signal: AbortSignal;
}

export interface SupervisorProcess {
  child: ChildProcess;
  port: number;
}

const STDERR_TAIL = 2_000;

/**
 * Starts the supervisor as a child of this process, in a process group of its own, on a free loopback port, and
 * resolves once it printed `listening <port>`. Its stdin, which brings it its token and the run's environment, stays
 * a pipe from us, so it exits if we die.
 */
export function startSupervisor(options: StartSupervisorOptions): Promise<SupervisorProcess> {
  const child = spawn(
    process.execPath,
    [
      options.supervisorPath,
      '--port',
      '0',
      '--host',
      '127.0.0.1',
      '--workspace',
      options.workspace,
      '--chromium',
      options.chromiumPath,
      '--exit-on-stdin-close',
    ],
    { env: options.env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] },
  );
  // A supervisor that dies early closes the pipe; its exit is reported below, not as a write error.
  child.stdin?.on('error', () => undefined);
  child.stdin?.write(`${JSON.stringify(options.handover)}\n`);
  let stderrTail = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderrTail = (stderrTail + chunk).slice(-STDERR_TAIL);
    for (const line of chunk.split('\n')) if (line.trim() !== '') options.logger.warn({ line }, 'sandbox supervisor stderr');
  });

  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    const fail = (error: unknown): void => {
      cleanup();
      child.kill('SIGKILL');
      reject(error);
    };
    const onExit = (code: number | null, signal: string | null): void =>
      fail(
        new SandboxError(`sandbox supervisor exited (${signal ?? `code ${code}`}) before listening: ${stderrTail.trim()}`, {
          code: 'start_failed',
        }),
      );
    const onError = (error: Error): void => fail(new SandboxError(`sandbox supervisor did not start: ${error.message}`, { code: 'start_failed' }));
    const onAbort = (): void => fail(options.signal.reason);
    const timer = setTimeout(
      () => fail(new SandboxError(`sandbox supervisor not listening after ${options.timeoutMs} ms`, { code: 'start_failed' })),
      options.timeoutMs,
    );
    const cleanup = (): void => {
      clearTimeout(timer);
      child.off('exit', onExit).off('error', onError);
      options.signal.removeEventListener('abort', onAbort);
      lines.close();
    };
    lines.once('line', (line) => {
      const match = /^listening (\d+)$/.exec(line);
      if (match === null) {
        return fail(new SandboxError(`unexpected first line from the sandbox supervisor: ${line.slice(0, 200)}`, { code: 'start_failed' }));
      }
      cleanup();
      // Later stdout is not part of the protocol; keep draining it so the supervisor never blocks on a full pipe.
      child.stdout?.resume();
      resolve({ child, port: Number(match[1]) });
    });
    child.once('exit', onExit).once('error', onError);
    options.signal.addEventListener('abort', onAbort, { once: true });
    if (options.signal.aborted) onAbort();
  });
}
