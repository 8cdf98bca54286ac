/**
 * The sandbox supervisor: one per sandbox, serving the protocol of `src/sandbox/protocol.ts`. Depends only on Node
 * built-ins and playwright-core, because it also runs inside the sandbox image.
 *
 *   ERRAND_SUPERVISOR_TOKEN=... node main.js --port 0 --host 127.0.0.1 --workspace DIR [--chromium PATH]
 *                                            [--exit-on-stdin-close]
 *
 * Prints `listening <port>` as its first stdout line once it accepts requests.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { AddressInfo } from 'node:net';
import { BrowserSession } from './browser.js';
import { Executor } from './exec.js';
import { createSupervisorServer } from './server.js';

const TOKEN_VARIABLE = 'ERRAND_SUPERVISOR_TOKEN';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '0' },
      host: { type: 'string', default: '127.0.0.1' },
      workspace: { type: 'string' },
      chromium: { type: 'string', default: '/usr/bin/chromium' },
      'exit-on-stdin-close': { type: 'boolean', default: false },
    },
  });
  const token = process.env[TOKEN_VARIABLE];
  if (token === undefined || token.length < 16) throw new Error(`${TOKEN_VARIABLE} must hold a token of at least 16 characters`);
  if (values.workspace === undefined) throw new Error('--workspace is required');
  // Code the sandbox runs inherits this environment; it must never see the token that controls the sandbox.
  delete process.env[TOKEN_VARIABLE];

  const workspace = resolve(values.workspace);
  await mkdir(workspace, { recursive: true });
  const scratchDir = await mkdtemp(join(tmpdir(), 'errand-supervisor-'));
  const executor = new Executor({ workspace, scratchDir, env: { ...process.env, HOME: workspace } });
  const browser = new BrowserSession(values.chromium);
  const server = createSupervisorServer({ token, workspace, executor, browser });

  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> =>
    (stopping ??= (async () => {
      server.close();
      server.closeAllConnections();
      executor.killAll();
      await browser.close();
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

main().catch((error: unknown) => {
  process.stderr.write(`supervisor: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
