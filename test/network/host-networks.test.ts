/**
 * The host's networks as the URL guard sees them, read from a real kernel's routes and followed as they change.
 * Each test runs the compiled module in a network namespace of its own (`unshare --net`), which holds only a
 * loopback device: the routes and addresses added there exist nowhere else, and nothing is sent anywhere.
 */
import { spawnSync } from 'node:child_process';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';

const MODULE = new URL('../../dist/src/network/host-networks.js', import.meta.url).href;

function namespaceProblem(): string | null {
  const tried = spawnSync('unshare', ['--net', '--', 'ip', 'link', 'set', 'lo', 'up'], { encoding: 'utf8' });
  if (tried.error) return `unshare is not available (${tried.error.message})`;
  return tried.status === 0 ? null : `a network namespace cannot be made here (${tried.stderr.trim()})`;
}

const problem = namespaceProblem();
if (problem !== null) console.warn(`[host network tests skipped] ${problem}`);

/** Runs `body` (an async function body with `HostNetworks`, `ip(...args)` and `refusal(ip)`) in a fresh namespace. */
async function inNamespace<T>(body: string): Promise<T> {
  const script = `
    import { execFileSync } from 'node:child_process';
    const { HostNetworks } = await import(${JSON.stringify(MODULE)});
    const ip = (...args) => execFileSync('ip', args);
    const quiet = { info() {}, warn() {} };
    const until = async (done) => { for (let i = 0; i < 300 && !done(); i++) await new Promise((r) => setTimeout(r, 50)); };
    ip('link', 'set', 'lo', 'up');
    const result = await (async () => { ${body} })();
    process.stdout.write(JSON.stringify(result));
    process.exit(0);
  `;
  const { stdout } = await execa('unshare', ['--net', '--', process.execPath, '--input-type=module', '-e', script]);
  return JSON.parse(stdout) as T;
}

describe.skipIf(problem !== null)('HostNetworks', () => {
  it("refuses the host's own addresses and the networks of its routes in every table, and nothing else", async () => {
    const seen = await inNamespace<Record<string, string | null>>(`
      ip('addr', 'add', '8.8.4.4/24', 'dev', 'lo');
      ip('route', 'add', '9.9.9.0/24', 'dev', 'lo', 'table', '100');
      ip('-6', 'addr', 'add', '2a00:1450:4001::5/64', 'dev', 'lo');
      const networks = await HostNetworks.start({ logger: quiet });
      const refusal = (a) => networks.forbidden().refusal(a)?.name ?? null;
      const seen = Object.fromEntries(['8.8.4.4', '8.8.4.200', '9.9.9.9', '2a00:1450:4001::5', '::ffff:9.9.9.9', '8.8.8.8', '1.1.1.1'].map((a) => [a, refusal(a)]));
      networks.close();
      return seen;
    `);
    const host = expect.stringContaining('directly connected');
    expect(seen).toEqual({
      '8.8.4.4': host,
      '8.8.4.200': host,
      '9.9.9.9': host,
      '2a00:1450:4001::5': host,
      '::ffff:9.9.9.9': host,
      '8.8.8.8': null,
      '1.1.1.1': null,
    });
  });

  it('follows the routes as they change, without a restart', async () => {
    const seen = await inNamespace<{ before: string | null; added: string | null; removed: string | null }>(`
      const networks = await HostNetworks.start({ logger: quiet });
      const refusal = (a) => networks.forbidden().refusal(a)?.name ?? null;
      const before = refusal('8.8.4.9');
      ip('addr', 'add', '8.8.4.4/24', 'dev', 'lo');
      await until(() => refusal('8.8.4.9') !== null);
      const added = refusal('8.8.4.9');
      ip('addr', 'del', '8.8.4.4/24', 'dev', 'lo');
      await until(() => refusal('8.8.4.9') === null);
      const removed = refusal('8.8.4.9');
      networks.close();
      return { before, added, removed };
    `);
    expect(seen).toEqual({ before: null, added: expect.stringContaining('directly connected'), removed: null });
  });

  it("without iproute2, says why and refuses the networks and addresses of the host's interfaces instead", async () => {
    const script = `
      const { HostNetworks } = await import(${JSON.stringify(MODULE)});
      const networks = await HostNetworks.read();
      const refusal = (a) => networks.forbidden().refusal(a)?.name ?? null;
      process.stdout.write(JSON.stringify({ unreadable: networks.unreadable, own: refusal('8.8.4.4'), neighbour: refusal('8.8.4.9'), outside: refusal('8.8.8.8') }));
    `;
    // The address is set up with `ip`; the module then runs with no `ip` on its PATH.
    const setUp = 'ip link set lo up && ip addr add 8.8.4.4/24 dev lo && PATH=/nonexistent exec "$0" --input-type=module -e "$1"';
    const { stdout } = await execa('unshare', ['--net', '--', 'sh', '-c', setUp, process.execPath, script]);
    const host = expect.stringContaining('directly connected');
    expect(JSON.parse(stdout)).toEqual({ unreadable: expect.stringMatching(/ip/), own: host, neighbour: host, outside: null });
  });
});
