import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type Docker from 'dockerode';
import { execa } from 'execa';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentProcessIdentity } from '../../src/runtime/process-identity.js';
import {
  checkHostFirewall,
  FIREWALL_HELPER_LABEL,
  hostFirewallPins,
  hostFirewallProbe,
  installHostFirewall,
  removeHostFirewallHelper,
  type HostFirewallOptions,
} from '../../src/sandbox/docker/host-firewall.js';
import { DAEMON_LABEL, INSTALLATION_LABEL, processLabels, SANDBOX_LABEL } from '../../src/sandbox/docker/labels.js';
import { sweepOrphans } from '../../src/sandbox/docker/orphan-sweep.js';
import { FORWARD_CHAIN, INPUT_CHAIN, parseNameservers, PIN_CHAIN, pinRules, sandboxFirewallRules } from '../../src/sandbox/docker/sandbox-firewall.js';
import { runCli } from '../cli/run-cli.js';
import { dockerAvailability } from '../fixtures/docker.js';
import { tempDir } from '../fixtures/temp-dir.js';

const docker = await dockerAvailability();
const logger = pino({ level: 'silent' });

/**
 * A stand-in for another engine's host: a container on a network of the test's own, whose network namespace (its
 * routes, resolv.conf and iptables) the helper joins instead of this machine's. Root with NET_ADMIN there, so that
 * the test can make what Docker makes on a host and read what was installed.
 */
async function standInHost(network: Docker.Network, name: string, iptables: 'iptables' | 'iptables-legacy' = 'iptables') {
  const container = await docker.docker.createContainer({
    name,
    Image: docker.image,
    Entrypoint: ['sleep', 'infinity'],
    User: '0:0',
    HostConfig: { NetworkMode: network.id, CapDrop: ['ALL'], CapAdd: ['NET_ADMIN', 'NET_RAW'], Init: true },
  });
  await container.start();
  const run = async (...cmd: string[]) => (await execa('docker', ['exec', container.id, ...cmd])).stdout;
  return {
    container,
    run,
    chain: async (chain: string) => (await run(iptables, '-S', chain)).split('\n').filter((line) => line.startsWith('-A ')),
    /** What Docker makes on a host where it manages iptables, with the host's iptables (nft here, unless legacy). */
    addDockerUserChain: async () => {
      await run(iptables, '-N', 'DOCKER-USER');
      await run(iptables, '-A', 'FORWARD', '-j', 'DOCKER-USER');
    },
  };
}

/** The rules the local path computes for the stand-in host: its subnet and gateway (its routes) and its resolvers. */
async function expectedRules(network: Docker.Network, host: Awaited<ReturnType<typeof standInHost>>) {
  const ipam = ((await network.inspect()) as Docker.NetworkInspectInfo).IPAM!.Config![0]!;
  const connected = [`${ipam.Gateway!}/32`, ipam.Subnet!].sort();
  return sandboxFirewallRules({ bridge: 'errand0', nameservers: parseNameservers(await host.run('cat', '/etc/resolv.conf')), connectedNetworks: connected });
}

/**
 * The helper path of the firewall (issue 26, item 2), on the local engine but never on this machine's own iptables:
 * the helper joins the network namespace of a throwaway "host" container on a network the test makes, so every rule
 * it writes lands there. The tests run in order against that one namespace: a host without Docker's chain, then with
 * it, installed, installed again, and the helper swept.
 */
describe.skipIf(!docker.available)('the firewall of a remote engine’s host, through a helper container', () => {
  const suffix = randomBytes(4).toString('hex');
  // The helper's daemon is this process, alive: no other daemon's sweep may take the helper from the tests.
  const labels = {
    [SANDBOX_LABEL]: '1',
    [INSTALLATION_LABEL]: `hostfw-test-${suffix}`,
    [DAEMON_LABEL]: `instance-${suffix}`,
    ...processLabels(currentProcessIdentity()),
  };
  let network: Docker.Network;
  let host: Awaited<ReturnType<typeof standInHost>>;
  let options: HostFirewallOptions;
  const helpers = () => docker.docker.listContainers({ all: true, filters: { label: [`${FIREWALL_HELPER_LABEL}=second`, `${INSTALLATION_LABEL}=${labels[INSTALLATION_LABEL]}`] } });
  const chain = (name: string) => host.chain(name);

  beforeAll(async () => {
    network = await docker.docker.createNetwork({ Name: `errand-hostfw-test-${suffix}`, Driver: 'bridge' });
    host = await standInHost(network, `errand-hostfw-host-${suffix}`);
    options = { image: docker.image, bridge: 'errand0', host: 'second', labels, networkMode: `container:${host.container.id}` };
  }, 60_000);

  afterAll(async () => {
    for (const helper of await helpers()) await docker.docker.getContainer(helper.Id).remove({ force: true }).catch(() => undefined);
    await host?.container.remove({ force: true }).catch(() => undefined);
    await network?.remove().catch(() => undefined);
  });

  it('refuses a host whose Docker engine has no DOCKER-USER chain, and writes nothing there', async () => {
    const checked = await checkHostFirewall(docker.docker, options);
    expect(checked.installed).toBe(false);
    expect(checked.detail).toMatch(/^on second: second has no DOCKER-USER chain in iptables/);
    expect(await installHostFirewall(docker.docker, options)).toEqual(checked);
    expect(await host.run('iptables', '-S')).not.toContain('ERRAND-SANDBOX');
  }, 60_000);

  it('checks false before the install and true after, with the rules the local path computes from that host’s routes and resolvers', async () => {
    await host.addDockerUserChain();
    const before = await checkHostFirewall(docker.docker, options);
    expect(before.installed).toBe(false);
    expect(before.detail).toMatch(/^on second: missing the jump from INPUT to ERRAND-SANDBOX-IN, .*; the daemon installs them through its helper, or run the script of `errand sandbox firewall --print` there/);

    const installed = await installHostFirewall(docker.docker, options);
    expect(installed).toEqual({ installed: true, detail: expect.stringMatching(/^on second: \d+ rules in ERRAND-SANDBOX-FWD and 4 in ERRAND-SANDBOX-IN, jumped to for errand0/) });
    const expected = await expectedRules(network, host);
    expect(await chain(FORWARD_CHAIN)).toEqual(expected.rules.filter((rule) => rule.startsWith(`-A ${FORWARD_CHAIN} `)));
    expect(await chain(INPUT_CHAIN)).toEqual(expected.rules.filter((rule) => rule.startsWith(`-A ${INPUT_CHAIN} `)));
    expect((await chain('INPUT'))[0]).toBe(expected.inputHook);
    expect((await chain('DOCKER-USER'))[0]).toBe(expected.forwardHook);
    expect(await checkHostFirewall(docker.docker, options)).toEqual(installed);
  }, 60_000);

  it('changes nothing when installed again, the jumps staying first and single', async () => {
    const before = await host.run('iptables', '-S');
    expect((await installHostFirewall(docker.docker, options)).installed).toBe(true);
    expect(await host.run('iptables', '-S')).toBe(before);
    expect((await chain('INPUT')).filter((rule) => rule.includes(INPUT_CHAIN))).toHaveLength(1);
    expect((await chain('DOCKER-USER')).filter((rule) => rule.includes(FORWARD_CHAIN))).toHaveLength(1);
  }, 60_000);

  it('looks quickly before runs: in place, missing once flushed, and in place again once put back, its helper found anew when it went', async () => {
    const probe = hostFirewallProbe(docker.docker, options);
    expect((await probe()).installed).toBe(true);
    await host.run('iptables', '-F', FORWARD_CHAIN);
    expect(await probe()).toMatchObject({ installed: false, detail: expect.stringMatching(/^on second: missing the rules of ERRAND-SANDBOX-FWD; /) });
    expect((await installHostFirewall(docker.docker, options)).installed).toBe(true);
    await removeHostFirewallHelper(docker.docker, options);
    expect((await probe()).installed).toBe(true);
    expect(await helpers()).toHaveLength(1);
  }, 60_000);

  it('runs one helper per daemon and host, labelled as the daemon’s, with NET_ADMIN and NET_RAW only, unprivileged', async () => {
    const [helper, ...others] = await helpers();
    expect(others).toEqual([]);
    expect(helper!.Labels).toMatchObject({ ...labels, [FIREWALL_HELPER_LABEL]: 'second' });
    const inspected = await docker.docker.getContainer(helper!.Id).inspect();
    expect(inspected.State.Running).toBe(true);
    expect(inspected.HostConfig).toMatchObject({ Privileged: false, CapDrop: ['ALL'], CapAdd: ['NET_ADMIN', 'NET_RAW'], NetworkMode: `container:${host.container.id}`, ReadonlyRootfs: true });
    expect(inspected.HostConfig.Binds ?? []).toEqual([]);
  }, 60_000);

  it('pins a proxied run’s sandbox on that host to its proxy and the host’s resolvers, replaces the pin, and lifts it', async () => {
    const pins = hostFirewallPins(docker.docker, options, logger);
    const nameservers = parseNameservers(await host.run('cat', '/etc/resolv.conf'));
    await pins.pin('172.30.0.7', { addresses: ['203.0.113.9'], port: 3128 });
    await pins.pin('172.30.0.8', { addresses: ['198.51.100.4'], port: 8080 });
    expect(await chain(PIN_CHAIN)).toEqual([...pinRules('172.30.0.7', { addresses: ['203.0.113.9'], port: 3128 }, nameservers), ...pinRules('172.30.0.8', { addresses: ['198.51.100.4'], port: 8080 }, nameservers)]);
    // A new sandbox at an address a pin was left on gets its own.
    await pins.pin('172.30.0.7', { addresses: ['192.0.2.44'], port: 1080 });
    await pins.unpin('172.30.0.8');
    expect(await chain(PIN_CHAIN)).toEqual(pinRules('172.30.0.7', { addresses: ['192.0.2.44'], port: 1080 }, nameservers));
    await pins.unpin('172.30.0.7');
    await pins.unpin('172.30.0.7');
    expect(await chain(PIN_CHAIN)).toEqual([]);
    // The pins are the host's, outside the chains an install replaces.
    expect((await checkHostFirewall(docker.docker, options)).installed).toBe(true);
  }, 60_000);

  it('is kept by the sweeps while its daemon runs, swept once its daemon is gone, and the rules stay', async () => {
    const [helper] = await helpers();
    const installation = labels[INSTALLATION_LABEL]!;
    await sweepOrphans(docker.docker, { instanceId: labels[DAEMON_LABEL]!, installationId: installation }, logger);
    await sweepOrphans(docker.docker, { instanceId: `later-${suffix}`, installationId: installation }, logger);
    expect((await docker.docker.getContainer(helper!.Id).inspect()).State.Running).toBe(true);
    // The helper of a daemon of this installation that has ended (its pid is free), as a later daemon finds it.
    const ended = { ...labels, [DAEMON_LABEL]: `ended-${suffix}`, ...processLabels({ ...currentProcessIdentity()!, pid: spawnSync(process.execPath, ['-e', '']).pid }) };
    expect((await checkHostFirewall(docker.docker, { ...options, labels: ended })).installed).toBe(true);
    const left = (await helpers()).find((container) => container.Labels[DAEMON_LABEL] === `ended-${suffix}`);
    expect(left).toBeDefined();
    await sweepOrphans(docker.docker, { instanceId: `later-${suffix}`, installationId: installation }, logger);
    await expect(docker.docker.getContainer(left!.Id).inspect()).rejects.toMatchObject({ statusCode: 404 });
    expect(await helpers()).toHaveLength(1);
    await removeHostFirewallHelper(docker.docker, options);
    expect(await helpers()).toEqual([]);
    expect(await chain(FORWARD_CHAIN)).not.toEqual([]);
  }, 60_000);
});

describe.skipIf(!docker.available)('errand sandbox firewall --print, the script that installs the firewall by hand', () => {
  const suffix = randomBytes(4).toString('hex');
  const files = tempDir('errand-hostfw-');
  // Labels of this test's process, so that a helper it leaves behind is swept once it has ended.
  const labels = { [SANDBOX_LABEL]: '1', [INSTALLATION_LABEL]: `manual-${suffix}`, [DAEMON_LABEL]: `instance-${suffix}`, ...processLabels(currentProcessIdentity()) };
  let network: Docker.Network;
  let host: Awaited<ReturnType<typeof standInHost>>;

  beforeAll(async () => {
    network = await docker.docker.createNetwork({ Name: `errand-hostfw-manual-${suffix}`, Driver: 'bridge' });
    host = await standInHost(network, `errand-hostfw-manual-${suffix}`);
    await host.addDockerUserChain();
  }, 60_000);

  afterAll(async () => {
    await removeHostFirewallHelper(docker.docker, { host: 'manual', labels });
    await host?.container.remove({ force: true }).catch(() => undefined);
    await network?.remove().catch(() => undefined);
    files.remove();
  });

  it('installs, from the host’s routes and resolv.conf, the rules the helper checks for, and changes nothing when run again', async () => {
    writeFileSync(join(files.path, 'routes.json'), await host.run('ip', '-json', '-4', 'route', 'show', 'table', 'all'));
    writeFileSync(join(files.path, 'resolv.conf'), await host.run('cat', '/etc/resolv.conf'));
    const printed = await runCli(['sandbox', 'firewall', '--print', '--routes', join(files.path, 'routes.json'), '--resolv-conf', join(files.path, 'resolv.conf')]);
    expect(printed.stderr).toBe('');
    expect(printed.code).toBe(0);
    await execa('docker', ['exec', '-i', host.container.id, 'sh'], { input: printed.stdout });
    const expected = await expectedRules(network, host);
    expect(await host.chain(FORWARD_CHAIN)).toEqual(expected.rules.filter((rule) => rule.startsWith(`-A ${FORWARD_CHAIN} `)));
    expect(await host.chain(INPUT_CHAIN)).toEqual(expected.rules.filter((rule) => rule.startsWith(`-A ${INPUT_CHAIN} `)));
    const installed = await host.run('iptables', '-S');
    await execa('docker', ['exec', '-i', host.container.id, 'sh'], { input: printed.stdout });
    expect(await host.run('iptables', '-S')).toBe(installed);
    const options = { image: docker.image, bridge: 'errand0', host: 'manual', labels, networkMode: `container:${host.container.id}` };
    expect((await checkHostFirewall(docker.docker, options)).installed).toBe(true);
  }, 60_000);
});

describe.skipIf(!docker.available)('the firewall of a host whose Docker uses iptables-legacy', () => {
  const suffix = randomBytes(4).toString('hex');
  const labels = { [SANDBOX_LABEL]: '1', [INSTALLATION_LABEL]: `legacy-${suffix}`, [DAEMON_LABEL]: `instance-${suffix}`, ...processLabels(currentProcessIdentity()) };
  let network: Docker.Network;
  let host: Awaited<ReturnType<typeof standInHost>>;

  beforeAll(async () => {
    network = await docker.docker.createNetwork({ Name: `errand-hostfw-legacy-${suffix}`, Driver: 'bridge' });
    host = await standInHost(network, `errand-hostfw-legacy-${suffix}`, 'iptables-legacy');
    await host.addDockerUserChain();
  }, 60_000);

  afterAll(async () => {
    await removeHostFirewallHelper(docker.docker, { host: 'legacy', labels });
    await host?.container.remove({ force: true }).catch(() => undefined);
    await network?.remove().catch(() => undefined);
  });

  it('is installed in the legacy tables, where Docker’s DOCKER-USER chain is, and none in nft’s', async () => {
    const options = { image: docker.image, bridge: 'errand0', host: 'legacy', labels, networkMode: `container:${host.container.id}` };
    expect((await installHostFirewall(docker.docker, options)).installed).toBe(true);
    const expected = await expectedRules(network, host);
    expect(await host.chain(FORWARD_CHAIN)).toEqual(expected.rules.filter((rule) => rule.startsWith(`-A ${FORWARD_CHAIN} `)));
    expect((await host.chain('DOCKER-USER'))[0]).toBe(expected.forwardHook);
    expect(await host.run('iptables-nft', '-S')).not.toContain('ERRAND-SANDBOX');
  }, 60_000);
});
