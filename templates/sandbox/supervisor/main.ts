/**
 * The sandbox supervisor: one per sandbox, serving the protocol of `src/sandbox/protocol.ts`. Depends only on Node
 * built-ins and playwright-core, because it also runs inside the sandbox image.
 *
 *   node main.js --port 0 --host 127.0.0.1 --workspace DIR [--chromium PATH] [--run-as UID:GID]
 *                [--ffmpeg PATH] [--exit-on-stdin-close]     < {"token": ..., "env": {...}, "tls": {...} | null} on the first line
 *
 * The bearer token that drives it, its TLS key and the run's environment for task code come as the first line of its stdin
 * (`SupervisorHandover`), never in its environment or arguments: those of every process can be read through /proc
 * by code of the same user, and an init process keeps the environment it was started with. With `--run-as`, task
 * code, Chromium and file access run as that user instead of this one (see `task-user.ts`). Prints
 * `listening <port>` as its first stdout line once it accepts requests.
 */
import { chmod, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { parseArgs } from 'node:util';
import type { AddressInfo } from 'node:net';
import type { SupervisorHandover } from '../../../src/sandbox/protocol.js';
import { BrowserSession, chromiumLauncher } from './browser.js';
import { EgressProxy } from './egress-proxy.js';
import { Executor } from './exec.js';
import { Recording } from './recording.js';
import { LiveScreen } from './live-screen.js';
import { RunOutputs } from './run-outputs.js';
import { createSupervisorServer } from './server.js';
import { parseTaskUser, runAs, type TaskUser } from './task-user.js';
import { WorkspaceFiles } from './workspace-files.js';
import { InputFiles } from './input-files.js';

const TOKEN_MIN_LENGTH = 16;
const HANDOVER_MAX_LENGTH = 1024 * 1024;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '0' },
      host: { type: 'string', default: '127.0.0.1' },
      workspace: { type: 'string' },
      chromium: { type: 'string', default: '/usr/bin/chromium' },
      // Encodes recordings (recording.ts); found on PATH unless named.
      ffmpeg: { type: 'string', default: 'ffmpeg' },
      'run-as': { type: 'string' },
      'exit-on-stdin-close': { type: 'boolean', default: false },
    },
  });
  if (values.workspace === undefined) throw new Error('--workspace is required');
  const user = parseTaskUser(values['run-as']);
  const { token, env, tls } = parseHandover(await firstLine(process.stdin));
  await checkTaskUser(user);

  const workspace = resolve(values.workspace);
  await mkdir(workspace, { recursive: true });
  const scratchDir = await mkdtemp(join(tmpdir(), 'errand-supervisor-'));
  // The task user runs the code files and the Chromium launcher kept here; listing the directory it does not need.
  if (user !== null) await chmod(scratchDir, 0o711);
  const egress = new EgressProxy();
  const executor = new Executor({ workspace, scratchDir, env: { ...process.env, ...env, HOME: workspace }, extraEnv: () => egress.environment(), user });
  const recording = new Recording(values.ffmpeg);
  const files = new WorkspaceFiles(user);
  const outputs = new RunOutputs(workspace, user, files);
  await outputs.prepare();
  const inputs = new InputFiles(workspace);
  const browser = new BrowserSession(await chromiumLauncher(values.chromium, user, scratchDir), user, recording, outputs, inputs, egress);
  const server = createSupervisorServer({ token, tls, workspace, executor, browser, recording, live: new LiveScreen(browser), files, outputs, inputs, egress });

  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> =>
    (stopping ??= (async () => {
      server.close();
      server.closeAllConnections();
      executor.killAll();
      await browser.close();
      await egress.close();
      await rm(scratchDir, { recursive: true, force: true });
      process.exit(0);
    })());
  process.on('SIGTERM', () => void stop());
  process.on('SIGINT', () => void stop());
  if (values['exit-on-stdin-close']) {
    // The local driver holds our stdin open; when the daemon dies without cleaning up, so do we.
    process.stdin.on('end', () => void stop()).on('error', () => void stop()).resume();
  }

  await new Promise<void>((listening, failed) => {
    server.once('error', failed);
    server.listen(Number(values.port), values.host, listening);
  });
  process.stdout.write(`listening ${(server.address() as AddressInfo).port}\n`);
}

/** The first line of `input`; it is paused after that line's chunk. */
function firstLine(input: Readable): Promise<string> {
  return new Promise((resolve, reject) => {
    let received = Buffer.alloc(0);
    const done = (): void => {
      input.off('data', onData).off('end', onEnd).off('error', onEnd);
      input.pause();
    };
    const onData = (chunk: Buffer): void => {
      received = Buffer.concat([received, chunk]);
      const newline = received.indexOf(0x0a);
      if (newline !== -1) {
        done();
        resolve(received.subarray(0, newline).toString('utf8'));
      } else if (received.length > HANDOVER_MAX_LENGTH) {
        done();
        reject(new Error(`the first line of stdin is longer than ${HANDOVER_MAX_LENGTH} bytes`));
      }
    };
    const onEnd = (): void => {
      done();
      reject(new Error('stdin ended before a line with the token and environment'));
    };
    input.on('data', onData).once('end', onEnd).once('error', onEnd);
  });
}

function parseHandover(line: string): SupervisorHandover {
  let value: { token?: unknown; env?: unknown; tls?: unknown };
  try {
    value = JSON.parse(line) as typeof value;
  } catch {
    throw new Error('the first line of stdin is not JSON');
  }
  const { token, env, tls } = value;
  if (typeof token !== 'string' || token.length < TOKEN_MIN_LENGTH) {
    throw new Error(`the token on stdin must be a string of at least ${TOKEN_MIN_LENGTH} characters`);
  }
  if (typeof env !== 'object' || env === null || Array.isArray(env) || Object.values(env).some((v) => typeof v !== 'string')) {
    throw new Error('the environment on stdin must be an object of strings');
  }
  if (tls === undefined || tls === null) return { token, env: env as Record<string, string>, tls: null };
  const fields = typeof tls === 'object' ? (tls as Record<string, unknown>) : {};
  if (typeof fields.psk !== 'string' || Buffer.from(fields.psk, 'base64url').length < TOKEN_MIN_LENGTH || typeof fields.identity !== 'string' || typeof fields.ciphers !== 'string') {
    throw new Error('the tls on stdin must be null or {psk, identity, ciphers}');
  }
  return { token, env: env as Record<string, string>, tls: { psk: fields.psk, identity: fields.identity, ciphers: fields.ciphers } };
}

/** Fails at start, not at the first run, when this process cannot start processes as the task user. */
async function checkTaskUser(user: TaskUser): Promise<void> {
  if (user === null) return;
  const status = await runAs(user, 'cat', ['/proc/self/status']).catch((error: unknown) => {
    throw new Error(`cannot start processes as ${user.uid}:${user.gid} (the supervisor needs CAP_SETUID and CAP_SETGID): ${String(error)}`);
  });
  if (!new RegExp(`^Uid:\\s+${user.uid}\\s`, 'm').test(status)) throw new Error(`processes started as ${user.uid} do not run as that user`);
}

main().catch((error: unknown) => {
  process.stderr.write(`supervisor: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
