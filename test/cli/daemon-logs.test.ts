import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { RotatingLogFile } from '../../daemon/rotating-log-file.js';
import { isAlive } from '../../src/runtime/daemon-state.js';
import { tempDir } from '../fixtures/temp-dir.js';
import { cleanEnv, runCli } from './run-cli.js';

const ERRAND = fileURLToPath(new URL('../../bin/errand', import.meta.url));
const ERRANDD = fileURLToPath(new URL('../../bin/errandd', import.meta.url));
const home = tempDir('errand-daemon-logs-');
const env = { ERRAND_SANDBOX_DRIVER: 'local', ERRAND_LOG_LEVEL: 'info' };
const cli = (...args: string[]) => runCli(['--home', home.path, ...args], { env });
let startedPid: number | null = null;

afterAll(() => {
  if (startedPid !== null && isAlive(startedPid)) process.kill(startedPid, 'SIGKILL');
  home.remove();
});

describe('errand daemon logs', () => {
  it("prints the started daemon's log readably, or as its JSON lines with --json", async () => {
    const started = await cli('daemon', 'start', '--port', '0', '--json');
    expect(started.code).toBe(0);
    startedPid = started.json().pid;
    await fetch(`${started.json().url}/healthz`);

    await expect.poll(async () => (await cli('daemon', 'logs', '--json')).stdout).toContain('"msg":"request"');
    const raw = (await cli('daemon', 'logs', '--json', '-n', '3')).stdout.trim().split('\n');
    expect(raw).toHaveLength(3);
    for (const line of raw) expect(() => JSON.parse(line)).not.toThrow();

    const readable = await cli('daemon', 'logs');
    expect(readable.code).toBe(0);
    expect(readable.stdout).toMatch(/^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}\] INFO: daemon started$/m);
    expect(readable.stdout).not.toMatch(/^\{/m);
    expect((await cli('daemon', 'stop')).code).toBe(0);
  });

  it('follows the file with -f across rotations without losing or repeating a line', async () => {
    const other = tempDir('errand-daemon-logs-');
    const path = `${other.path}/errandd.log`;
    const log = new RotatingLogFile(path, 2000, 50);
    log.write('{"seq":-1,"msg":"before"}\n');
    const child = spawn(process.execPath, [ERRAND, '--home', other.path, 'daemon', 'logs', '-f', '-n', '1', '--json'], { env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
    try {
      // Once it has printed the last line, every line written after it must reach it, rotations or not.
      await expect.poll(() => out, { timeout: 10_000 }).toContain('"before"');
      for (let seq = 0; seq < 300; seq += 3) {
        log.write(Array.from({ length: 3 }, (_, i) => `{"seq":${seq + i},"msg":"line"}\n`).join(''));
        if (seq % 30 === 0) await new Promise((r) => setTimeout(r, 20));
      }
      const seen = () => out.split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { seq: number }).seq);
      await expect.poll(() => seen().length, { timeout: 10_000 }).toBeGreaterThanOrEqual(301);
      expect(seen()).toEqual([-1, ...Array.from({ length: 300 }, (_, i) => i)]);
    } finally {
      child.kill('SIGINT');
      log.close();
      other.remove();
    }
  });

  it('says that a daemon in the foreground logs to its standard error, instead of finding no lines', async () => {
    const other = tempDir('errand-daemon-logs-');
    const child = spawn(process.execPath, [ERRANDD, '--port', '0', '--home', other.path], { env: cleanEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const first = await createInterface({ input: child.stdout! })[Symbol.asyncIterator]().next();
      expect(first.value).toMatch(/^listening on /);
      const res = await runCli(['--home', other.path, 'daemon', 'logs'], { env });
      expect(res.code).toBe(1);
      expect(res.stderr).toContain(`error: the daemon running on ${other.path} (pid ${child.pid}) writes its log to its standard error, not to a file`);
      expect(res.stderr).not.toContain('no log lines');
    } finally {
      child.kill('SIGTERM');
      await once(child, 'exit');
      other.remove();
    }
  });
});
