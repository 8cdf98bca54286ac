import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { UserError } from './cli-errors.js';

const START_TIMEOUT_MS = 30_000;

export interface TraceViewer {
  /** Where the viewer serves the trace, on loopback. */
  url: string;
  /** Resolves when the viewer has stopped (on `stop`, or by itself). */
  stopped: Promise<void>;
  stop(): void;
}

/**
 * The Playwright trace viewer that playwright-core ships (`show-trace`), serving `tracePath` on a loopback port:
 * `port`, or any free one (0). It opens a tab of the system's browser itself when there is one to open; it needs no
 * browser of Playwright's, nor anything else installed.
 */
export async function startTraceViewer(tracePath: string, port = 0): Promise<TraceViewer> {
  // cli.js is not among the package's exports; its package.json is, and cli.js sits beside it.
  const cli = join(dirname(createRequire(import.meta.url).resolve('playwright-core/package.json')), 'cli.js');
  const child = spawn(process.execPath, [cli, 'show-trace', '--host', '127.0.0.1', '--port', String(port), tracePath], { stdio: ['ignore', 'pipe', 'pipe'] });
  const stopped = new Promise<void>((resolve) => child.once('close', () => resolve()));
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => fail(`it did not start within ${START_TIMEOUT_MS / 1000} s`), START_TIMEOUT_MS);
    const fail = (why: string): void => {
      clearTimeout(timer);
      child.kill();
      reject(new UserError(`the trace viewer did not start: ${why}; the trace is saved at ${tracePath}`, 'trace_viewer_failed'));
    };
    const read = (chunk: Buffer): void => {
      output += chunk.toString('utf8');
      const listening = /Listening on (http:\/\/\S+)/.exec(output);
      if (listening?.[1] !== undefined) {
        clearTimeout(timer);
        resolve(listening[1]);
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('error', (error) => fail(error.message));
    child.once('exit', (code) => fail(`it ended with exit code ${code ?? 'null'}: ${output.trim().split('\n')[0] ?? ''}`));
  });
  // show-trace takes another port, without a word, when the one asked for is taken: a tunnel or bookmark to the
  // port asked for would reach nothing, or something else.
  if (port !== 0 && Number(new URL(url).port) !== port) {
    child.kill('SIGTERM');
    await stopped;
    throw new UserError(`port ${port} is taken on 127.0.0.1: give another with --port, or leave --port out for any free one; the trace is saved at ${tracePath}`, 'port_in_use');
  }
  return { url, stopped, stop: () => child.kill('SIGTERM') };
}

/** Whether a browser window can open here: always on macOS and Windows; on Linux and the BSDs only under X or Wayland. */
export function hasDisplay(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): boolean {
  if (platform === 'darwin' || platform === 'win32') return true;
  return Boolean(env.DISPLAY || env.WAYLAND_DISPLAY);
}
