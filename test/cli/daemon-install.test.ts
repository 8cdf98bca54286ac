import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { unitPathProblems } from '../../cli/commands/daemon/systemd-unit.js';
import { tempDir } from '../fixtures/temp-dir.js';
import { cleanEnv, runCli } from './run-cli.js';

const dir = tempDir('errand-install-');
const home = join(dir.path, 'data % dir');
afterAll(() => dir.remove());

/** The words of a systemd command line written with double quotes, as systemd splits them. */
function words(line: string): string[] {
  return [...line.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1]!.replace(/\\(.)/g, '$1').replace(/%%/g, '%'));
}

const hasSystemdAnalyze = spawnSync('systemd-analyze', ['--version']).status === 0;
const hasErrandUser = spawnSync('id', ['-u', 'errand']).status === 0;

describe('errand daemon install', () => {
  it('prints a unit that runs errandd as the given user, restarts it on failure, and reads an environment file', async () => {
    const res = await runCli(['--home', home, 'daemon', 'install', '--print', '--user', 'errandsvc', '--set', 'log.level=debug']);
    expect(res.code).toBe(0);
    const unit = res.stdout;
    expect(unit).toMatch(/^User=errandsvc$/m);
    expect(unit).toMatch(/^Restart=on-failure$/m);
    expect(unit).toMatch(/^RestartPreventExitStatus=2$/m);
    expect(unit).toMatch(/^EnvironmentFile=-\/etc\/errand\/errandd\.env$/m);
    expect(unit).toMatch(/^WantedBy=multi-user\.target$/m);
    const exec = words(/^ExecStart=(.*)$/m.exec(unit)![1]!);
    expect(exec.slice(2)).toEqual(['--home', home, '--set', 'log.level=debug']);
    expect(exec[1]).toMatch(/bin\/errandd$/);
    expect(words(unit.split('\n').filter((l) => l.startsWith('Environment=')).join(' '))).toEqual([`ERRAND_HOME=${home}`, `ERRAND_LOG_FILE=${home}/errandd.log`]);
  });

  it.skipIf(!hasSystemdAnalyze)('prints a unit systemd-analyze verify accepts without a warning', async () => {
    const res = await runCli(['--home', home, 'daemon', 'install', '--print', '--user', 'errandsvc']);
    const path = join(dir.path, 'errandd.service');
    writeFileSync(path, res.stdout);
    const verify = spawnSync('systemd-analyze', ['verify', path], { encoding: 'utf8' });
    expect(verify.status).toBe(0);
    expect(verify.stderr).toBe('');
  });

  it('has an ExecStart that starts the daemon, with the log in the data directory', async () => {
    const res = await runCli(['--home', home, 'daemon', 'install', '--print', '--port', '0', '--dev']);
    const [command, ...args] = words(/^ExecStart=(.*)$/m.exec(res.stdout)![1]!);
    const env = Object.fromEntries(words(res.stdout.split('\n').filter((l) => l.startsWith('Environment=')).join(' ')).map((w) => w.split(/=(.*)/s).slice(0, 2)));
    const child = spawn(command!, args, { env: cleanEnv({ ...env, ERRAND_SANDBOX_DRIVER: 'local' }), stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const first = await createInterface({ input: child.stdout! })[Symbol.asyncIterator]().next();
      expect(first.value).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+$/);
      await expect.poll(() => existsSync(join(home, 'errandd.log')) && readFileSync(join(home, 'errandd.log'), 'utf8')).toContain('daemon started');
    } finally {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  });

  it('writes the unit and a 0600 environment file, and replaces neither without --force', async () => {
    const unitPath = join(dir.path, 'units', 'errandd.service');
    const envFile = join(dir.path, 'etc', 'errandd.env');
    const args = ['--home', home, 'daemon', 'install', '--user', 'errandsvc', '--unit-path', unitPath, '--environment-file', envFile];
    const res = await runCli([...args, '--json']);
    expect(res.code).toBe(0);
    expect(res.json()).toMatchObject({ unit_path: unitPath, env_file: envFile, env_file_written: true, user: 'errandsvc' });
    expect(statSync(unitPath).mode & 0o777).toBe(0o644);
    expect(statSync(envFile).mode & 0o777).toBe(0o600);
    expect(readFileSync(unitPath, 'utf8')).toContain(`EnvironmentFile=-${envFile}`);

    writeFileSync(envFile, 'ANTHROPIC_API_KEY=kept\n');
    const again = await runCli(args);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/exists; --force replaces it/);
    const forced = await runCli([...args, '--force', '--json']);
    expect(forced.json()).toMatchObject({ env_file_written: false });
    expect(readFileSync(envFile, 'utf8')).toBe('ANTHROPIC_API_KEY=kept\n');
  });

  it('runs errandd as a system user of its own by default, whoever runs the command, and says how to make it', async () => {
    const res = await runCli(['--home', '/srv/errand-data', 'daemon', 'install', '--print'], { env: { SUDO_USER: 'alice' } });
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^User=errand$/m);
    if (!hasErrandUser) {
      expect(res.stderr).toContain('warning: there is no user errand on this machine');
      expect(res.stderr).toContain('sudo useradd --system --home-dir /srv/errand-data --shell /usr/sbin/nologin errand');
      expect(res.stderr).toContain('sudo install -d -m 0700 -o errand -g errand /srv/errand-data');
    }
  });

  it('warns on stderr, and in --json, when the data directory is under a /tmp that PrivateTmp=yes hides from the service', async () => {
    for (const hidden of ['/tmp', '/var/tmp']) {
      const res = await runCli(['--home', `${hidden}/errand-install-probe`, 'daemon', 'install', '--print', '--user', 'errandsvc']);
      expect(res.code).toBe(0);
      expect(res.stdout).toMatch(/^PrivateTmp=yes$/m);
      expect(res.stderr).toContain(`warning: the data directory ${hidden}/errand-install-probe is under ${hidden}, which the unit's PrivateTmp=yes hides from errandd`);
    }
    const json = await runCli(['--home', '/tmp/errand-install-probe', 'daemon', 'install', '--print', '--user', 'errandsvc', '--json']);
    expect(json.json().warnings).toContainEqual(expect.stringMatching(/^the data directory \/tmp\/errand-install-probe is under \/tmp, which the unit's PrivateTmp=yes hides/));
  });

  it('warns when the data directory is under a directory ProtectSystem=full makes read-only, and not when it is elsewhere', async () => {
    const readOnly = await runCli(['--home', '/etc/errand', 'daemon', 'install', '--print', '--user', 'errandsvc']);
    expect(readOnly.stderr).toContain("warning: the data directory /etc/errand is under /etc, which the unit's ProtectSystem=full makes read-only");
    const fine = await runCli(['--home', '/srv/errand-data', 'daemon', 'install', '--print', '--user', 'errandsvc']);
    expect(fine.stderr).not.toMatch(/the data directory \/srv\/errand-data is under/);
  });

  it('names a node binary or errandd script under /tmp, where ExecStart would not find them', () => {
    expect(unitPathProblems({ home: '/srv/errand-data', node: '/usr/bin/node', script: '/opt/errand/bin/errandd' })).toEqual([]);
    const problems = unitPathProblems({ home: '/srv/errand-data', node: '/tmp/node-v20/bin/node', script: '/var/tmp/errand/bin/errandd' });
    expect(problems).toEqual([
      expect.stringMatching(/^the node binary \/tmp\/node-v20\/bin\/node is under \/tmp, which the unit's PrivateTmp=yes hides from errandd: ExecStart would fail/),
      expect.stringMatching(/^errandd's script \/var\/tmp\/errand\/bin\/errandd is under \/var\/tmp, which the unit's PrivateTmp=yes hides/),
    ]);
  });
});
