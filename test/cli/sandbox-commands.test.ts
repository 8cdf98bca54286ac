import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../fixtures/temp-dir.js';
import { runCli } from './run-cli.js';

// These commands report on the Docker engine rather than need one: where none is reachable they say so.
const home = tempDir('errand-sandbox-cli-');
afterAll(() => home.remove());

describe('errand sandbox', () => {
  it('status reports the engine and the configured image as JSON', async () => {
    const res = await runCli(['--home', home.path, 'sandbox', 'status', '--json'], { env: { ERRAND_SANDBOX_IMAGE: 'errand-cli-test-absent:1' } });
    expect(res.code).toBe(0);
    const status = res.json();
    expect(typeof status.engine.reachable).toBe('boolean');
    expect(status.image).toMatchObject({ name: 'errand-cli-test-absent:1', present: false });
  });

  it('build refuses --base together with --offline as a usage error', async () => {
    const res = await runCli(['--home', home.path, 'sandbox', 'build', '--base', 'debian:bookworm-slim', '--offline']);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('cannot be used with');
  });

  it('firewall only prints the script that installs the firewall by hand: without --print it says so, as a usage error', async () => {
    const res = await runCli(['--home', home.path, 'sandbox', 'firewall']);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('add --print');
  });

  it('firewall --print refuses routes that are not what `ip -json route` prints', async () => {
    const res = await runCli(['--home', home.path, 'sandbox', 'firewall', '--print', '--routes', '-'], { input: 'default via 10.0.0.1 dev eth0' });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('--routes must hold what `ip -json -4 route show table all` prints');
  });

  it("firewall --print --json answers the host's bridge, connected networks, resolvers and the script, from the routes and resolv.conf given", async () => {
    const routes = JSON.stringify([
      { dst: 'default', gateway: '10.9.0.1', dev: 'eth0', flags: [] },
      { dst: '10.9.0.0/24', dev: 'eth0', protocol: 'kernel', scope: 'link', prefsrc: '10.9.0.5', flags: [] },
    ]);
    const resolv = join(home.path, 'resolv.conf');
    writeFileSync(resolv, 'nameserver 10.9.0.53\n');
    const res = await runCli(['--home', home.path, 'sandbox', 'firewall', '--print', '--routes', '-', '--resolv-conf', resolv, '--json'], { input: routes });
    expect(res.code).toBe(0);
    const printed = res.json();
    expect(Object.keys(printed)).toEqual(['bridge', 'connected_networks', 'nameservers', 'script']);
    expect(printed).toMatchObject({ bridge: 'errand0', nameservers: ['10.9.0.53'] });
    expect(printed.connected_networks).toContain('10.9.0.0/24');
    expect(printed.script).toContain('-A ERRAND-SANDBOX-FWD -d 10.9.0.0/24 -j DROP');
  });

  it('doctor fails the sandbox check when the docker driver is required but cannot run', async () => {
    const res = await runCli(['--home', home.path, 'doctor', '--json'], {
      env: { ERRAND_SANDBOX_DRIVER: 'docker', ERRAND_SANDBOX_IMAGE: 'errand-cli-test-absent:1', ANTHROPIC_API_KEY: 'k' },
    });
    expect(res.code).toBe(1);
    const sandbox = res.json().checks.find((c: { check: string }) => c.check === 'sandbox');
    expect(sandbox.level).toBe('fail');
    expect(sandbox.detail).toMatch(/^sandbox\.driver is docker but (no Docker engine reachable|image errand-cli-test-absent:1 is not built)/);
  });
});
