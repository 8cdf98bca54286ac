import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import type Docker from 'dockerode';
import { execa } from 'execa';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentProcessIdentity } from '../../src/runtime/process-identity.js';
import { checkHostFirewall, FIREWALL_HELPER_LABEL, installHostFirewall, removeHostFirewallHelper, type HostFirewallOptions } from '../../src/sandbox/docker/host-firewall.js';
import { DAEMON_LABEL, INSTALLATION_LABEL, processLabels, SANDBOX_LABEL } from '../../src/sandbox/docker/labels.js';
import { sweepOrphans } from '../../src/sandbox/docker/orphan-sweep.js';
import { FORWARD_CHAIN, INPUT_CHAIN, parseNameservers, sandboxFirewallRules } from '../../src/sandbox/docker/sandbox-firewall.js';
import { dockerAvailability } from '../fixtures/docker.js';

const docker = await dockerAvailability();
const logger = pino({ level: 'silent' });

/**
 * The helper path of the firewall (issue 26, item 2), on the local engine but never on this machine's own iptables:
 * the helper joins the network namespace of a throwaway "host" container on a network the test makes, so every rule
 * it writes lands there. The tests run in order against that one namespace: a host without Docker's chain, then with
 * it, installed, installed again, and the helper swept.
 */
describe.skipIf(!docker.available)('the firewall of a remote engine’s host, through a helper container', () => {
  const suffix = randomBytes(4).toString('hex');
  const self = currentProcessIdentity()!;
  // The helper's daemon is a process that has ended, so that a later daemon of the installation may sweep it.
  const deadDaemon = { ...self, pid: spawnSync(process.execPath, ['-e', '']).pid };
  const labels = {
    [SANDBOX_LABEL]: '1',
    [INSTALLATION_LABEL]: `hostfw-test-${suffix}`,
    [DAEMON_LABEL]: `instance-${suffix}`,
    ...processLabels(deadDaemon),
  };
  let network: Docker.Network;
  let host: Docker.Container;
  let options: HostFirewallOptions;
  let connected: string[];

  /** A command in the stand-in host's namespace, as root with NET_ADMIN there. */
  const onHost = async (...cmd: string[]) => (await execa('docker', ['exec', host.id, ...cmd])).stdout;
  const chain = async (name: string) => (await onHost('iptables', '-S', name)).split('\n').filter((line) => line.startsWith('-A '));
  const helpers = () => docker.docker.listContainers({ all: true, filters: { label: [`${FIREWALL_HELPER_LABEL}=second`, `${INSTALLATION_LABEL}=${labels[INSTALLATION_LABEL]}`] } });

  beforeAll(async () => {
    network = await docker.docker.createNetwork({ Name: `errand-hostfw-test-${suffix}`, Driver: 'bridge' });
    host = await docker.docker.createContainer({
      name: `errand-hostfw-host-${suffix}`,
      Image: docker.image,
      Entrypoint: ['sleep', 'infinity'],
      User: '0:0',
      HostConfig: { NetworkMode: network.id, CapDrop: ['ALL'], CapAdd: ['NET_ADMIN', 'NET_RAW'], Init: true },
    });
    await host.start();
    const ipam = ((await network.inspect()) as Docker.NetworkInspectInfo).IPAM!.Config![0]!;
    // What `ip route` of the namespace holds: its subnet on eth0 and the default route through the gateway.
    connected = [`${ipam.Gateway!}/32`, ipam.Subnet!].sort();
    options = { image: docker.image, bridge: 'errand0', host: 'second', labels, networkMode: `container:${host.id}` };
  }, 60_000);

  afterAll(async () => {
    for (const helper of await helpers()) await docker.docker.getContainer(helper.Id).remove({ force: true }).catch(() => undefined);
    await host?.remove({ force: true }).catch(() => undefined);
    await network?.remove().catch(() => undefined);
  });

  it('refuses a host whose Docker engine has no DOCKER-USER chain, and writes nothing there', async () => {
    const checked = await checkHostFirewall(docker.docker, options);
    expect(checked.installed).toBe(false);
    expect(checked.detail).toMatch(/^on second: second has no DOCKER-USER chain in iptables/);
    expect(await installHostFirewall(docker.docker, options)).toEqual(checked);
    expect(await onHost('iptables', '-S')).not.toContain('ERRAND-SANDBOX');
  }, 60_000);

  it('checks false before the install and true after, with the rules the local path computes from that host’s routes and resolvers', async () => {
    // What Docker makes on a host where it manages iptables.
    await onHost('iptables', '-N', 'DOCKER-USER');
    await onHost('iptables', '-A', 'FORWARD', '-j', 'DOCKER-USER');
    const before = await checkHostFirewall(docker.docker, options);
    expect(before.installed).toBe(false);
    expect(before.detail).toMatch(/^on second: missing the jump from INPUT to ERRAND-SANDBOX-IN/);

    const installed = await installHostFirewall(docker.docker, options);
    expect(installed).toEqual({ installed: true, detail: expect.stringMatching(/^on second: \d+ rules in ERRAND-SANDBOX-FWD and 4 in ERRAND-SANDBOX-IN, jumped to for errand0/) });
    const expected = sandboxFirewallRules({ bridge: 'errand0', nameservers: parseNameservers(await onHost('cat', '/etc/resolv.conf')), connectedNetworks: connected });
    expect(await chain(FORWARD_CHAIN)).toEqual(expected.rules.filter((rule) => rule.startsWith(`-A ${FORWARD_CHAIN} `)));
    expect(await chain(INPUT_CHAIN)).toEqual(expected.rules.filter((rule) => rule.startsWith(`-A ${INPUT_CHAIN} `)));
    expect((await chain('INPUT'))[0]).toBe(expected.inputHook);
    expect((await chain('DOCKER-USER'))[0]).toBe(expected.forwardHook);
    expect(await checkHostFirewall(docker.docker, options)).toEqual(installed);
  }, 60_000);

  it('changes nothing when installed again, the jumps staying first and single', async () => {
    const before = await onHost('iptables', '-S');
    expect((await installHostFirewall(docker.docker, options)).installed).toBe(true);
    expect(await onHost('iptables', '-S')).toBe(before);
    expect((await chain('INPUT')).filter((rule) => rule.includes(INPUT_CHAIN))).toHaveLength(1);
    expect((await chain('DOCKER-USER')).filter((rule) => rule.includes(FORWARD_CHAIN))).toHaveLength(1);
  }, 60_000);

  it('runs one helper per daemon and host, labelled as the daemon’s, with NET_ADMIN and NET_RAW only, unprivileged', async () => {
    const [helper, ...others] = await helpers();
    expect(others).toEqual([]);
    expect(helper!.Labels).toMatchObject({ ...labels, [FIREWALL_HELPER_LABEL]: 'second' });
    const inspected = await docker.docker.getContainer(helper!.Id).inspect();
    expect(inspected.State.Running).toBe(true);
    expect(inspected.HostConfig).toMatchObject({ Privileged: false, CapDrop: ['ALL'], CapAdd: ['NET_ADMIN', 'NET_RAW'], NetworkMode: `container:${host.id}`, ReadonlyRootfs: true });
    expect(inspected.HostConfig.Binds ?? []).toEqual([]);
  }, 60_000);

  it('is kept by its own daemon’s sweep, swept by a later daemon’s once its daemon is gone, and the rules stay', async () => {
    const [helper] = await helpers();
    await sweepOrphans(docker.docker, { instanceId: labels[DAEMON_LABEL]!, installationId: labels[INSTALLATION_LABEL]! }, logger);
    expect((await docker.docker.getContainer(helper!.Id).inspect()).State.Running).toBe(true);
    await sweepOrphans(docker.docker, { instanceId: `later-${suffix}`, installationId: labels[INSTALLATION_LABEL]! }, logger);
    await expect(docker.docker.getContainer(helper!.Id).inspect()).rejects.toMatchObject({ statusCode: 404 });
    // The next check starts a helper again and finds the rules where the first one left them.
    expect((await checkHostFirewall(docker.docker, options)).installed).toBe(true);
    expect(await helpers()).toHaveLength(1);
    await removeHostFirewallHelper(docker.docker, options);
    expect(await helpers()).toEqual([]);
    expect(await chain(FORWARD_CHAIN)).not.toEqual([]);
  }, 60_000);
});
