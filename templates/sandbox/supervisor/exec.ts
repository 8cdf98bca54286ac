import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CodeLanguage, ExecRequest, ExecResult } from '../../../src/sandbox/protocol.js';
import { CappedText } from './capped-text.js';
import { spawnAs, type TaskUser } from './task-user.js';

export const OUTPUT_LIMIT = 20_000;
/** After the main process exits, output still held open by background jobs is no longer waited for. */
const STDIO_GRACE_MS = 250;

export interface ExecutorOptions {
  workspace: string;
  /** Variables that go on top of `env` in every call: the egress proxy's, once the run has one. */
  extraEnv?: () => Record<string, string>;
  /** Directory for the code files, readable by the task user; not the workspace, so code does not trip over them. */
  scratchDir: string;
  env: NodeJS.ProcessEnv;
  user: TaskUser;
}

/**
 * Runs code in the workspace, each call as its own process group so that a timeout or an abandoned request kills
 * everything the code started. Background jobs that outlive their call keep running (an agent may start a server
 * and then browse to it) until `killAll()`.
 */
export class Executor {
  private readonly groups = new Set<number>();
  private counter = 0;

  constructor(private readonly options: ExecutorOptions) {}

  async run(request: ExecRequest, signal: AbortSignal): Promise<ExecResult> {
    const started = performance.now();
    const file = join(this.options.scratchDir, `code-${++this.counter}${EXTENSIONS[request.language]}`);
    await writeFile(file, request.code);
    try {
      return await this.spawnAndCollect(request, file, signal, started);
    } finally {
      await rm(file, { force: true });
    }
  }

  killAll(): void {
    for (const pgid of this.groups) killGroup(pgid);
    this.groups.clear();
  }

  private spawnAndCollect(request: ExecRequest, file: string, signal: AbortSignal, started: number): Promise<ExecResult> {
    const stdout = new CappedText(OUTPUT_LIMIT);
    const stderr = new CappedText(OUTPUT_LIMIT);
    const child = spawnAs(this.options.user, interpreter(request.language), [file], {
      cwd: this.options.workspace,
      env: { ...this.options.env, ...this.options.extraEnv?.() },
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    if (child.pid !== undefined) this.groups.add(child.pid);
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => stdout.append(chunk));
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => stderr.append(chunk));

    return new Promise((resolve) => {
      let timedOut = false;
      let exitCode: number | null = null;
      let graceTimer: NodeJS.Timeout | undefined;
      const kill = (): void => {
        if (child.pid !== undefined) killGroup(child.pid);
      };
      const timer = setTimeout(() => {
        timedOut = true;
        kill();
      }, request.timeoutMs);
      signal.addEventListener('abort', kill, { once: true });
      if (signal.aborted) kill();

      let finished = false;
      const finish = (): void => {
        if (finished) return;
        finished = true;
        clearTimeout(timer);
        clearTimeout(graceTimer);
        signal.removeEventListener('abort', kill);
        child.stdout!.destroy();
        child.stderr!.destroy();
        if (child.pid !== undefined && !isGroupAlive(child.pid)) this.groups.delete(child.pid);
        resolve({
          exitCode,
          stdout: stdout.toString(),
          stderr: stderr.toString(),
          timedOut,
          durationMs: Math.round(performance.now() - started),
        });
      };
      child.on('error', (error) => {
        stderr.append(`failed to start ${request.language}: ${error.message}\n`);
        finish();
      });
      child.on('exit', (code) => {
        exitCode = code;
        graceTimer = setTimeout(finish, STDIO_GRACE_MS);
      });
      child.on('close', finish);
    });
  }
}

const EXTENSIONS: Record<CodeLanguage, string> = { bash: '.sh', python: '.py', node: '.cjs' };

function interpreter(language: CodeLanguage): string {
  switch (language) {
    case 'bash':
      return 'bash';
    case 'python':
      return 'python3';
    case 'node':
      return process.execPath;
    default: {
      const unreachable: never = language;
      throw new Error(`unknown language ${String(unreachable)}`);
    }
  }
}

function killGroup(pgid: number): void {
  try {
    process.kill(-pgid, 'SIGKILL');
  } catch {
    // The group is already gone.
  }
}

function isGroupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}
