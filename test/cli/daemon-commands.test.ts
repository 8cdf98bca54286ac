import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isAlive } from '../../src/runtime/daemon-state.js';
import { tempDir } from '../fixtures/temp-dir.js';
import { runCli } from './run-cli.js';

const home = tempDir('errand-daemon-cli-');
const env = { ERRAND_SANDBOX_DRIVER: 'local', ERRAND_LOG_LEVEL: 'info' };
const cli = (...args: string[]) => runCli(['--home', home.path, ...args], { env });
let startedPid: number | null = null;

afterAll(() => {
  if (startedPid !== null && isAlive(startedPid)) process.kill(startedPid, 'SIGKILL');
  home.remove();
});

describe('errand daemon start|status|stop', () => {
  it('starts a background daemon, reports it, refuses a second one, and stops it', async () => {
    const started = await cli('daemon', 'start', '--port', '0', '--dev', '--json');
    expect(started.code).toBe(0);
    const info = started.json();
    startedPid = info.pid;
    expect(info.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(info.log).toBe(join(home.path, 'errandd.log'));
    expect(info.first_start.key).toMatch(/^ek_/);

    // The first key is shown to the user and works; it is not written into the log file.
    const res = await fetch(`${info.url}/v1/projects`, { headers: { authorization: `Bearer ${info.first_start.key}` } });
    expect(res.status).toBe(200);
    expect(readFileSync(info.log, 'utf8')).not.toContain(info.first_start.key);

    // With no environment at all, commands find the daemon through its state file and the saved first key.
    const listed = await cli('projects', 'list', '--json');
    expect(listed.code).toBe(0);
    expect(listed.json().data).toHaveLength(1);

    const status = await cli('daemon', 'status', '--json');
    expect(status.code).toBe(0);
    expect(status.json()).toMatchObject({ running: true, reachable: true, pid: info.pid, url: info.url });

    const second = await cli('daemon', 'start', '--port', '0');
    expect(second.code).toBe(1);
    expect(second.stderr).toContain(`a daemon already runs on ${home.path}: pid ${info.pid}`);

    const stopped = await cli('daemon', 'stop', '--json');
    expect(stopped.code).toBe(0);
    expect(stopped.json()).toEqual({ stopped: true, pid: info.pid });
    expect(isAlive(info.pid)).toBe(false);

    const after = await cli('daemon', 'status', '--json');
    expect(after.code).toBe(1);
    expect(after.json()).toMatchObject({ running: false, pid: null });

    const again = await cli('daemon', 'stop');
    expect(again.code).toBe(0);
    expect(again.stderr).toContain('no daemon is running');
  });

  it('agree right after a SIGKILL that no daemon runs, and start a new one', async () => {
    const started = (await cli('daemon', 'start', '--port', '0', '--json')).json();
    startedPid = started.pid;
    process.kill(started.pid, 'SIGKILL');
    // No waiting: the killed process may not even be reaped yet.
    const status = await cli('daemon', 'status', '--json');
    expect(status.code).toBe(1);
    expect(status.json()).toMatchObject({ running: false, reachable: false, pid: null });
    const stop = await cli('daemon', 'stop', '--json');
    expect(stop.code).toBe(0);
    expect(stop.json()).toEqual({ stopped: false, pid: null });
    expect(stop.stderr).toContain('no daemon is running');
    const again = await cli('daemon', 'start', '--port', '0', '--json');
    expect(again.code).toBe(0);
    startedPid = again.json().pid;
    expect((await cli('daemon', 'status', '--json')).json()).toMatchObject({ running: true, reachable: true, pid: startedPid });
    expect((await cli('daemon', 'stop', '--json')).json()).toEqual({ stopped: true, pid: startedPid });
  });

  it('says where a daemon that receives mail takes it (issue 21, item 11)', async () => {
    const other = tempDir('errand-daemon-cli-');
    const mail = ['--set', 'mail.relay_domain=relay.test', '--set', 'mail.inbound_port=0', '--set', 'mail.transport=capture'];
    try {
      const started = await runCli(['--home', other.path, 'daemon', 'start', '--port', '0', ...mail], { env });
      expect(started.code, started.stderr).toBe(0);
      const line = /^receiving mail for \*@relay\.test on (127\.0\.0\.1:\d+) \(SMTP\)$/m.exec(started.stderr);
      expect(line, started.stderr).not.toBeNull();
      const state = JSON.parse(readFileSync(join(other.path, 'errandd.json'), 'utf8'));
      expect(state.smtp).toBe(line![1]);
      expect((await runCli(['--home', other.path, 'daemon', 'stop'], { env })).code).toBe(0);
    } finally {
      other.remove();
    }
  });

  it('reports a daemon that cannot start, with its own message', async () => {
    const other = tempDir('errand-daemon-cli-');
    try {
      const bad = await runCli(['--home', other.path, 'daemon', 'start', '--port', '0', '--set', 'limits.max_steps=zero'], { env });
      expect(bad.code).toBe(1);
      expect(bad.stderr).toContain('errandd exited with code 2 before listening');
      expect(bad.stderr).toContain('limits.max_steps');
    } finally {
      other.remove();
    }
  });
});
