import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/package-root.js';
import type { Sandbox } from '../../src/sandbox/driver.js';
import { LocalDriver } from '../../src/sandbox/local/local-driver.js';
import { SandboxError } from '../../src/sandbox/sandbox-error.js';
import { tempDir } from '../fixtures/temp-dir.js';

const MARKER = 'ERRAND_SANDBOX_ID';

let home: ReturnType<typeof tempDir>;
let driver: LocalDriver;
let pages: Server;
let pagesUrl: string;

beforeAll(async () => {
  pages = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' }).end('<title>Local</title><h1>Served on loopback</h1>');
  });
  await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
  pagesUrl = `http://127.0.0.1:${(pages.address() as AddressInfo).port}/`;
});

afterAll(async () => {
  await new Promise((resolve) => pages.close(resolve));
});

beforeEach(() => {
  home = tempDir('errand-local-driver-');
  driver = new LocalDriver({ home: home.path, chromiumPath: '/usr/bin/chromium', logger: pino({ level: 'silent' }) });
});

afterEach(async () => {
  await driver.close();
  home.remove();
});

const signal = () => new AbortController().signal;
const create = (runId: string, env: Record<string, string> = {}) => driver.create({ runId, env, signal: signal() });
const bash = (sandbox: Sandbox, code: string) => sandbox.exec({ language: 'bash', code, timeoutMs: 20_000 }, signal());

async function waitUntil(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 150; i++) {
    if (condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out waiting until ${what}`);
}

/** Live (not zombie) processes whose environment names this sandbox. */
function processesOf(sandboxId: string): number[] {
  const marker = `${MARKER}=${sandboxId}`;
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        const state = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1] ?? '';
        return !state.startsWith('Z') && readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes(marker);
      } catch {
        return false;
      }
    })
    .map(Number);
}

describe('LocalDriver', () => {
  it('runs code and a browser in a sandbox', async () => {
    const sandbox = await create('run_browse');
    expect((await bash(sandbox, 'echo hello from $(basename "$(dirname "$PWD")")')).stdout).toBe(`hello from ${sandbox.id}\n`);
    const page = await sandbox.browser({ action: 'navigate', url: pagesUrl }, signal());
    expect(page).toMatchObject({ ok: true, status: 200, title: 'Local' });
  });

  it('gives two sandboxes different workspaces that cannot see each other', async () => {
    const first = await create('run_first');
    const second = await create('run_second');
    expect(first.id).not.toBe(second.id);
    const firstDir = (await bash(first, 'echo secret > note.txt; pwd')).stdout.trim();
    const secondDir = (await bash(second, 'pwd')).stdout.trim();
    expect(firstDir).not.toBe(secondDir);
    expect((await bash(second, 'cat note.txt')).exitCode).not.toBe(0);
    expect((await bash(first, 'cat note.txt')).stdout).toBe('secret\n');
  });

  it('passes the injected environment but not the daemon environment', async () => {
    process.env.ERRAND_TEST_DAEMON_SECRET = 'daemon-only';
    try {
      const sandbox = await create('run_env', { GITHUB_TOKEN: 'injected' });
      const result = await bash(sandbox, 'echo "$GITHUB_TOKEN ${ERRAND_TEST_DAEMON_SECRET:-absent} ${ERRAND_SUPERVISOR_TOKEN:-absent}"');
      expect(result.stdout).toBe('injected absent absent\n');
    } finally {
      delete process.env.ERRAND_TEST_DAEMON_SECRET;
    }
  });

  it('hands the supervisor its token on stdin: no process of the sandbox has it in its environment', async () => {
    const sandbox = await create('run_token');
    await bash(sandbox, 'true');
    const processes = processesOf(sandbox.id);
    expect(processes.length).toBeGreaterThan(0);
    for (const pid of processes) expect(readFileSync(`/proc/${pid}/environ`, 'latin1')).not.toContain('ERRAND_SUPERVISOR_TOKEN');
  });

  it('destroy() leaves no process and no workspace, and can be called again', async () => {
    const sandbox = await create('run_destroy');
    await bash(sandbox, 'sleep 300 & disown; echo started');
    await sandbox.browser({ action: 'navigate', url: pagesUrl }, signal());
    const dir = join(home.path, 'sandboxes', sandbox.id);
    expect(existsSync(join(dir, 'workspace'))).toBe(true);
    // The supervisor, a shell's background sleep, and Chromium's processes.
    expect(processesOf(sandbox.id).length).toBeGreaterThan(2);

    await sandbox.destroy();
    await sandbox.destroy();
    expect(processesOf(sandbox.id)).toEqual([]);
    expect(existsSync(dir)).toBe(false);
    await expect(bash(sandbox, 'true')).rejects.toBeInstanceOf(SandboxError);
  });

  it('close() destroys the sandboxes still open', async () => {
    const sandbox = await create('run_close');
    await driver.close();
    expect(processesOf(sandbox.id)).toEqual([]);
    expect(existsSync(join(home.path, 'sandboxes', sandbox.id))).toBe(false);
  });

  it('removeOrphans() removes leftover sandboxes and their processes but not live ones', async () => {
    const live = await create('run_live');
    const orphanId = 'run_dead-0123456789ab';
    const orphanDir = join(home.path, 'sandboxes', orphanId, 'workspace');
    mkdirSync(orphanDir, { recursive: true });
    writeFileSync(join(orphanDir, 'left.txt'), 'behind');
    const straggler = spawn('sleep', ['300'], { env: { PATH: process.env.PATH ?? '', [MARKER]: orphanId }, detached: true, stdio: 'ignore' });
    straggler.unref();
    expect(processesOf(orphanId)).toEqual([straggler.pid]);

    expect(await driver.removeOrphans()).toBe(1);
    expect(existsSync(join(home.path, 'sandboxes', orphanId))).toBe(false);
    expect(processesOf(orphanId)).toEqual([]);
    expect((await bash(live, 'echo still here')).stdout).toBe('still here\n');
  });

  it('stops the sandbox when the daemon that made it dies', async () => {
    const script = `
      import { pino } from 'pino';
      import { LocalDriver } from ${JSON.stringify(join(packageRoot(), 'src/sandbox/local/local-driver.ts'))};
      const driver = new LocalDriver({ home: ${JSON.stringify(home.path)}, chromiumPath: '/usr/bin/chromium', logger: pino({ level: 'silent' }) });
      const sandbox = await driver.create({ runId: 'run_daemon', env: {}, signal: new AbortController().signal });
      await sandbox.exec({ language: 'bash', code: 'sleep 300 & echo', timeoutMs: 10000 }, new AbortController().signal);
      console.log(sandbox.id);
      setInterval(() => {}, 1000);
    `;
    const daemon = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: packageRoot(),
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const id = await new Promise<string>((resolve, reject) => {
      daemon.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString().trim()));
      daemon.once('exit', (code) => reject(new Error(`the daemon exited with ${code}`)));
    });
    expect(processesOf(id).length).toBeGreaterThanOrEqual(2);
    daemon.kill('SIGKILL');
    await waitUntil(() => processesOf(id).length === 0, 'the orphaned supervisor and its code are gone');
    expect(await driver.removeOrphans()).toBe(1);
  });

  it('gives up creating when the signal aborts, leaving nothing behind', async () => {
    const abort = new AbortController();
    const creating = driver.create({ runId: 'run_aborted', env: {}, signal: abort.signal });
    abort.abort(new Error('run cancelled'));
    await expect(creating).rejects.toThrow('run cancelled');
    expect(readdirSync(join(home.path, 'sandboxes'))).toEqual([]);
  });

  it('fails to create with start_failed when the supervisor cannot start', async () => {
    const broken = new LocalDriver({
      home: home.path,
      chromiumPath: '/usr/bin/chromium',
      logger: pino({ level: 'silent' }),
      supervisorPath: join(home.path, 'missing-supervisor.js'),
    });
    await expect(broken.create({ runId: 'run_broken', env: {}, signal: signal() })).rejects.toMatchObject({ code: 'start_failed' });
    expect(readdirSync(join(home.path, 'sandboxes'))).toEqual([]);
  });
});
