/**
 * Runs the compiled CLI (`bin/errand`, so build first: `npx tsc -p .`) as a child process, the way a user does.
 * The environment is the test's own, without any ERRAND_* or provider variables of the developer's shell.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ERRAND = fileURLToPath(new URL('../../bin/errand', import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** stdout parsed as JSON (throws with the output shown when it is not JSON). */
  json<T = any>(): T;
}

export interface RunCliOptions {
  env?: Record<string, string | undefined>;
  /** The working directory (default: the test's). */
  cwd?: string;
  input?: string;
  signal?: AbortSignal;
}

export function cleanEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (k.startsWith('ERRAND_') || k.startsWith('ANTHROPIC_') || k.startsWith('OPENAI_')) continue;
    env[k] = v;
  }
  for (const [k, v] of Object.entries(extra)) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return env;
}

export function runCli(args: string[], options: RunCliOptions = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [ERRAND, ...args], {
      env: cleanEnv(options.env),
      stdio: ['pipe', 'pipe', 'pipe'],
      ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code) =>
      resolve({
        code,
        stdout,
        stderr,
        json() {
          try {
            return JSON.parse(stdout);
          } catch {
            throw new Error(`stdout is not JSON (exit ${code}):\n${stdout}\nstderr:\n${stderr}`);
          }
        },
      }),
    );
    child.stdin.end(options.input ?? '');
  });
}

export interface RunningCli {
  child: ReturnType<typeof spawn>;
  stdout(): string;
  stderr(): string;
  /** Resolves when `probe` holds for the output so far. */
  waitFor(probe: (out: { stdout: string; stderr: string }) => boolean, timeoutMs?: number): Promise<void>;
  exited: Promise<number | null>;
}

/** Starts the CLI without waiting for it to end, for long-running commands (listen, watch). */
export function spawnCli(args: string[], options: RunCliOptions = {}): RunningCli {
  const child = spawn(process.execPath, [ERRAND, ...args], { env: cleanEnv(options.env), stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  child.stdin.end(options.input ?? '');
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return {
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    exited,
    async waitFor(probe, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      while (!probe({ stdout, stderr })) {
        if (Date.now() > deadline) throw new Error(`timed out; stdout:\n${stdout}\nstderr:\n${stderr}`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
  };
}
