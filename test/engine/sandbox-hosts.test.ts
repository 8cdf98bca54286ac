/**
 * Runs on two Docker engines (issue 26, items 1 and 4): the local one, and a second dockerd in a network namespace
 * reached over tcp:// with TLS (test/fixtures/second-dockerd.ts). Runs spread over both; a host at capacity gets no
 * more, and the rest wait queued; a label sends a run to the host that has it, and a label no host has is refused
 * when the run or job is made; killing the second engine mid-run re-queues its runs, which finish on the first with
 * none lost or run twice; restarted, it is used again, its leftover containers removed. `errand sandbox build --host`
 * loads an image into it. The daemon puts the sandbox firewall on the second engine's host through its helper
 * container; a host whose rules are missing and left to its operator (`firewall: manual`) takes no run until the
 * script of `errand sandbox firewall --print` has run there. Without sandbox.hosts, the one engine is listed as host `local` and runs name no host.
 */
import type Docker from 'dockerode';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installationId } from '../../src/runtime/installation-id.js';
import { dataPaths } from '../../src/runtime/paths.js';
import { openStore } from '../../src/store/store.js';
import { FIREWALL_HELPER_LABEL } from '../../src/sandbox/docker/host-firewall.js';
import { SUPERVISOR_PORT } from '../../src/sandbox/docker/container-spec.js';
import { INSTALLATION_LABEL, RUN_LABEL, SANDBOX_LABEL } from '../../src/sandbox/docker/labels.js';
import { newSupervisorTls } from '../../src/sandbox/supervisor-channel.js';
import { SupervisorClient } from '../../src/sandbox/supervisor-client.js';
import { dockerAvailability } from '../fixtures/docker.js';
import { SecondDockerd, secondDockerdAvailability } from '../fixtures/second-dockerd.js';
import { toolUse, type AnthropicRequest, type AnthropicTurn, type ScriptedAnthropic } from '../fixtures/scripted-anthropic.js';
import { runCli } from '../cli/run-cli.js';
import { createRun, startEngine, until, waitForRun, type EngineHarness } from './harness.js';

const docker = await dockerAvailability();
const second = docker.available ? secondDockerdAvailability() : { available: false, reason: null };

/** Each host's capacity in runs: small, so that filling both takes few containers. */
const RUNS_PER_HOST = 2;

const done = (): AnthropicTurn => toolUse('finish', { result: { done: true }, confidence: 'high' });

/** A first model turn that waits for `release()`: its run is running, its sandbox started, until then. */
interface HeldRun {
  turn: () => Promise<AnthropicTurn>;
  arrived: Promise<void>;
  release(): void;
}

function held(): HeldRun {
  let arrive!: () => void;
  let release!: () => void;
  const arrived = new Promise<void>((resolve) => (arrive = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  return {
    arrived,
    release,
    async turn() {
      arrive();
      await released;
      return done();
    },
  };
}

/** One script per run, named in its prompt (`[conversation: NAME]`), so that runs that overlap each get their own turns. */
class Conversations {
  private readonly scripts = new Map<string, ((request: AnthropicRequest) => AnthropicTurn | Promise<AnthropicTurn>)[]>();
  private count = 0;

  constructor(model: ScriptedAnthropic) {
    model.script(Array.from({ length: 500 }, () => (request: AnthropicRequest) => this.next(request)));
  }

  /** A prompt whose run's attempts take `turns` in order. */
  prompt(turns: ((request: AnthropicRequest) => AnthropicTurn | Promise<AnthropicTurn>)[]): string {
    const name = `c${++this.count}`;
    this.scripts.set(name, [...turns]);
    return `[conversation: ${name}] Say done.`;
  }

  private async next(request: AnthropicRequest): Promise<AnthropicTurn> {
    const name = /\[conversation: (\w+)\]/.exec(JSON.stringify(request.body.messages[0]?.content))?.[1];
    const turn = name === undefined ? undefined : this.scripts.get(name)?.shift();
    if (turn === undefined) throw new Error(`no scripted turn left for conversation ${name ?? '(none named)'}`);
    return turn(request);
  }
}

interface HostStatus {
  name: string;
  state: 'up' | 'down';
  load: { runs: number };
  capacity: { runs: number };
  labels: string[];
  firewall: { required: boolean; installed: boolean | null; detail: string | null };
}

describe.skipIf(!second.available)('runs on two Docker engines', () => {
  let engine: SecondDockerd;
  let h: EngineHarness;
  let conversations: Conversations;
  let hostsConfig: string;

  const hosts = async (): Promise<Map<string, HostStatus>> => {
    const res = await h.daemon.api('GET', '/v1/status');
    expect(res.status).toBe(200);
    return new Map((res.body.sandbox.hosts as HostStatus[]).map((host) => [host.name, host]));
  };
  /** The run's status moves (`from>to`) as its event log recorded them, after its creation. */
  const statusMoves = (runId: string): string[] => {
    const store = openStore(dataPaths(h.daemon.home).database);
    try {
      return store.events
        .runAfter(runId, 0, 100)
        .filter((e) => e.type === 'run.status')
        .map((e) => JSON.parse(e.data) as { from: string | null; to: string })
        .filter((e) => e.from !== null)
        .map((e) => `${e.from}>${e.to}`);
    } finally {
      store.close();
    }
  };
  const hostOf = async (runId: string): Promise<string | null> => (await h.daemon.api('GET', `/v1/runs/${runId}`)).body.sandbox.host;
  /** The daemon's sandbox containers on an engine (not its firewall helper there). */
  const sandboxesOn = async (engineDocker: Docker): Promise<Docker.ContainerInfo[]> =>
    (await engineDocker.listContainers({ all: true, filters: { label: [`${SANDBOX_LABEL}=1`, `${INSTALLATION_LABEL}=${installationId(h.daemon.home)}`] } })).filter(
      (container) => container.Labels[FIREWALL_HELPER_LABEL] === undefined,
    );

  beforeAll(async () => {
    engine = await SecondDockerd.start(docker.image);
    console.info(`[second dockerd] up; loading ${docker.image} into it took ${engine.imageLoadMs} ms (0: cached from an earlier run)`);
    hostsConfig = JSON.stringify({
      local: { url: 'unix:///var/run/docker.sock', capacity: { runs: RUNS_PER_HOST } },
      second: { url: engine.url, tls: engine.tls, capacity: { runs: RUNS_PER_HOST }, labels: ['far'] },
    });
    h = await startEngine({
      env: {
        ERRAND_SANDBOX_DRIVER: 'docker',
        ERRAND_SANDBOX_IMAGE: docker.image,
        ERRAND_SANDBOX_WARM_POOL_SIZE: '0',
        ERRAND_SANDBOX_HOST_CHECK_MS: '500',
        ERRAND_LIMITS_MAX_CONCURRENT_RUNS: '10',
        ERRAND_SANDBOX_HOSTS: hostsConfig,
      },
    });
    conversations = new Conversations(h.model);
  }, 180_000);

  afterAll(async () => {
    await h?.daemon.stop();
    for (const container of h ? [...(await sandboxesOn(docker.docker)), ...(await sandboxesOn(engine.docker).catch(() => []))] : []) {
      await docker.docker.getContainer(container.Id).remove({ force: true }).catch(() => undefined);
    }
    await h?.close();
    await engine?.stop();
  }, 60_000);

  it('lists both hosts in GET /v1/status, up, with their capacity and labels, and the firewall the daemon put on the remote one', async () => {
    const listed = await until('both hosts up', async () => {
      const now = await hosts();
      return [...now.values()].every((host) => host.state === 'up') ? now : null;
    });
    expect(listed.get('local')).toMatchObject({ url: 'unix:///var/run/docker.sock', capacity: { runs: 2 }, load: { runs: 0 }, labels: [], runtime: 'runc', firewall: { required: true, installed: true } });
    expect(listed.get('second')).toMatchObject({ url: engine.url, capacity: { runs: 2 }, labels: ['far'], firewall: { required: true, installed: true } });
    // Installed through the helper container there, in the second engine's network namespace.
    expect(engine.inNamespace('iptables -S DOCKER-USER')).toContain('-j ERRAND-SANDBOX-FWD');
  });

  it('spreads runs over both hosts, gives a full host no more, and keeps the rest queued until one has room', async () => {
    const holds = Array.from({ length: 2 * RUNS_PER_HOST + 1 }, () => held());
    const runIds: string[] = [];
    for (const hold of holds) runIds.push(await createRun(h.daemon, { prompt: conversations.prompt([hold.turn]) }));
    await Promise.all(holds.slice(0, 2 * RUNS_PER_HOST).map((hold) => hold.arrived));

    const placed = await Promise.all(runIds.map(hostOf));
    const statuses = await Promise.all(runIds.map(async (id) => (await h.daemon.api('GET', `/v1/runs/${id}`)).body.status));
    expect(statuses.filter((s) => s === 'running')).toHaveLength(2 * RUNS_PER_HOST);
    const queued = runIds[statuses.indexOf('queued')]!;
    expect(placed.filter((host) => host === 'local')).toHaveLength(RUNS_PER_HOST);
    expect(placed.filter((host) => host === 'second')).toHaveLength(RUNS_PER_HOST);
    expect(await hostOf(queued)).toBeNull();
    const loaded = await hosts();
    expect(loaded.get('local')?.load.runs).toBe(RUNS_PER_HOST);
    expect(loaded.get('second')?.load.runs).toBe(RUNS_PER_HOST);
    // The second engine's sandboxes are its own containers, not the local engine's.
    expect(await sandboxesOn(engine.docker)).toHaveLength(RUNS_PER_HOST);

    holds[runIds.indexOf(runIds.find((id, i) => placed[i] === 'second')!)]!.release();
    await holds[runIds.indexOf(queued)]!.arrived;
    expect(await hostOf(queued)).toBe('second');
    for (const hold of holds) hold.release();
    const ended = await Promise.all(runIds.map((id) => waitForRun(h.daemon, id)));
    expect(ended.map((run) => run.status)).toEqual(runIds.map(() => 'succeeded'));
  });

  it('talks to a sandbox on the remote host only over TLS with that sandbox’s own key', async () => {
    const hold = held();
    const runId = await createRun(h.daemon, { prompt: conversations.prompt([hold.turn]), sandbox_label: 'far' });
    await hold.arrived;
    const sandbox = (await sandboxesOn(engine.docker)).find((c) => c.Labels[RUN_LABEL] === runId);
    const port = sandbox!.Ports.find((p) => p.PrivatePort === SUPERVISOR_PORT)?.PublicPort;
    expect(port).toBeGreaterThan(0);
    // The port the engine published on its host's address, which the network between the hosts carries.
    await expect(fetch(`http://${engine.address}:${port}/health`)).rejects.toThrow();
    const stranger = new SupervisorClient({ baseUrl: `https://${engine.address}:${port}`, token: 'a-token-of-nobody-0123456789', tls: newSupervisorTls() });
    await expect(stranger.health()).rejects.toMatchObject({ code: 'unreachable' });
    await stranger.close();
    hold.release();
    expect(await waitForRun(h.daemon, runId)).toMatchObject({ status: 'succeeded', sandbox: { host: 'second' } });
  });

  it('honours a label, and refuses one no host has when the run or job is made', async () => {
    const runId = await createRun(h.daemon, { prompt: conversations.prompt([done]), sandbox_label: 'far' });
    const run = await waitForRun(h.daemon, runId);
    expect(run).toMatchObject({ status: 'succeeded', sandbox: { label: 'far', host: 'second' } });
    const unlabelled = await waitForRun(h.daemon, await createRun(h.daemon, { prompt: conversations.prompt([done]) }));
    // Both idle: the tie goes to the first host of sandbox.hosts.
    expect(unlabelled.sandbox).toEqual({ label: null, host: 'local' });

    const refused = await h.daemon.api('POST', '/v1/runs', { prompt: 'p', sandbox_label: 'gpu' });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ type: 'invalid_request_error', code: 'unknown_sandbox_label', param: 'sandbox_label' });
    const project = (await h.daemon.api('GET', '/v1/projects')).body.data[0].id;
    const job = await h.daemon.api('POST', '/v1/jobs', { project_id: project, name: 'far job', prompt: 'p', sandbox_label: 'gpu' });
    expect(job.status).toBe(400);
    expect(job.body.error).toMatchObject({ code: 'unknown_sandbox_label', param: 'sandbox_label' });
  });

  it('re-queues the runs of a killed engine, which finish on the other with none lost or run twice; restarted, it is used again', async () => {
    const holds = Array.from({ length: 2 * RUNS_PER_HOST }, () => held());
    // A run that lands on the lost host asks the model again on its next attempt.
    const runIds: string[] = [];
    for (const hold of holds) runIds.push(await createRun(h.daemon, { prompt: conversations.prompt([hold.turn, done]) }));
    await Promise.all(holds.map((hold) => hold.arrived));
    const placed = await Promise.all(runIds.map(hostOf));
    const lost = runIds.filter((_, i) => placed[i] === 'second');
    expect(lost).toHaveLength(RUNS_PER_HOST);

    await engine.kill();
    await until('the second host marked down', async () => (await hosts()).get('second')?.state === 'down');
    const requeued = await Promise.all(lost.map((id) => waitForRun(h.daemon, id, ['queued'])));
    expect(requeued.map((run) => run.attempt)).toEqual(lost.map(() => 2));
    for (const hold of holds) hold.release();

    const ended = await Promise.all(runIds.map((id) => waitForRun(h.daemon, id)));
    expect(ended.map((run) => run.status)).toEqual(runIds.map(() => 'succeeded'));
    for (const run of ended) {
      const wasLost = lost.includes(run.task_id);
      expect(run).toMatchObject({ attempt: wasLost ? 2 : 1, sandbox: { host: 'local' } });
      const moves = statusMoves(run.task_id);
      // Made, claimed, (lost: re-queued, claimed again,) succeeded: one end, never two attempts at once.
      expect(moves).toEqual(wasLost ? ['queued>running', 'running>queued', 'queued>running', 'running>succeeded'] : ['queued>running', 'running>succeeded']);
    }

    await engine.startEngine();
    await until('the second host up again', async () => (await hosts()).get('second')?.state === 'up', 30_000);
    // Its containers of the lost attempts were removed as it came back.
    expect(await sandboxesOn(engine.docker)).toEqual([]);
    const after = await waitForRun(h.daemon, await createRun(h.daemon, { prompt: conversations.prompt([done]), sandbox_label: 'far' }));
    expect(after).toMatchObject({ status: 'succeeded', sandbox: { host: 'second' } });
  });

  it('lets no run act on a host whose rules were flushed: the host goes down for its firewall, the run waits, and the rules are put back', async () => {
    await until('the second host up', async () => (await hosts()).get('second')?.state === 'up', 30_000);
    const fenced = (): boolean => engine.inNamespace('iptables -S DOCKER-USER').includes('-j ERRAND-SANDBOX-FWD') && engine.inNamespace('iptables -S ERRAND-SANDBOX-FWD').includes('-j DROP');
    // Flushed as a firewall reload flushes them: the sandbox chains emptied, the jumps into them gone.
    engine.inNamespace('iptables -F ERRAND-SANDBOX-FWD; iptables -F ERRAND-SANDBOX-IN');
    for (const rule of engine.inNamespace('iptables -S').split('\n').filter((line) => line.startsWith('-A') && line.includes('-j ERRAND-SANDBOX'))) {
      engine.inNamespace(`iptables ${rule.replace(/^-A /, '-D ')}`);
    }
    expect(fenced()).toBe(false);

    // Each attempt runs a command in its sandbox first; what the rules were once it ran is read as its result comes back.
    const fencedOnceActed: boolean[] = [];
    const turn = (request: AnthropicRequest): AnthropicTurn => {
      if (request.body.messages.length === 1) return toolUse('run_code', { language: 'bash', code: 'echo acted' });
      fencedOnceActed.push(fenced());
      return done();
    };
    const runId = await createRun(h.daemon, { prompt: conversations.prompt([turn, turn, turn, turn]), sandbox_label: 'far' });
    const run = await waitForRun(h.daemon, runId);
    expect(run).toMatchObject({ status: 'succeeded', sandbox: { host: 'second' } });
    expect(fencedOnceActed).toEqual([true]);
    // Found by the check as the run's sandbox started there, or by the host check just before: down, for its firewall.
    expect(h.daemon.logs()).toMatch(/"host":"second","problem":"the sandbox firewall is not in place on second: missing [^"]*","msg":"sandbox host is down"/);
    expect((await hosts()).get('second')).toMatchObject({ state: 'up', firewall: { required: true, installed: true } });
    expect(fenced()).toBe(true);
  });

  it('takes no run on a host whose firewall is not in place (firewall: manual) until the operator installs it with the printed script', async () => {
    // The jumps into the sandbox chains gone, as after a reboot; the operator installs the rules on this host by hand.
    for (const rule of engine.inNamespace('iptables -S').split('\n').filter((line) => line.startsWith('-A') && line.includes('-j ERRAND-SANDBOX'))) {
      engine.inNamespace(`iptables ${rule.replace(/^-A /, '-D ')}`);
    }
    const manual = JSON.stringify({ ...JSON.parse(hostsConfig), second: { ...JSON.parse(hostsConfig).second, firewall: 'manual' } });
    await h.daemon.restart({ env: { ERRAND_SANDBOX_HOSTS: manual } });
    const refused = await until('the second host refused for its firewall', async () => {
      const host = (await hosts()).get('second');
      return host?.state === 'down' && host.firewall.installed === false ? host : null;
    });
    expect(refused.firewall.detail).toContain('errand sandbox firewall --print');
    const runId = await createRun(h.daemon, { prompt: conversations.prompt([done]), sandbox_label: 'far' });
    expect((await h.daemon.api('GET', `/v1/runs/${runId}`)).body.status).toBe('queued');

    const printed = await runCli(['--home', h.daemon.home, 'sandbox', 'firewall', '--print', '--routes', '-'], { input: engine.inNamespace('ip -json -4 route show table all') });
    expect(printed.code).toBe(0);
    engine.inNamespace(printed.stdout);
    const run = await waitForRun(h.daemon, runId);
    expect(run).toMatchObject({ status: 'succeeded', sandbox: { host: 'second' } });
    expect((await hosts()).get('second')).toMatchObject({ state: 'up', firewall: { required: true, installed: true } });
    expect(engine.inNamespace('iptables -S DOCKER-USER')).toContain('-j ERRAND-SANDBOX-FWD');
  });

  it('errand sandbox build --host loads the local engine\'s image into that host, once', async () => {
    // A tiny image stands for the sandbox image here: copying 1.3 GB is the fixture's job, and measured there.
    const image = `errand-hosts-copy-test:${process.pid}`;
    await execa('sh', ['-c', 'tar cf - --files-from /dev/null | docker import - "$1"', 'import', image]);
    const env = { ERRAND_SANDBOX_HOSTS: hostsConfig };
    try {
      const unknown = await runCli(['--home', h.daemon.home, 'sandbox', 'build', '--image', image, '--host', 'nowhere'], { env });
      expect(unknown.code).toBe(2);
      expect(unknown.stderr).toContain('sandbox.hosts has no such host (it has local, second)');
      const first = await runCli(['--home', h.daemon.home, 'sandbox', 'build', '--image', image, '--host', 'second', '--json'], { env });
      expect(first.code).toBe(0);
      const id = (await docker.docker.getImage(image).inspect()).Id;
      expect(first.json()).toMatchObject({ image, id, copied: true, built: false, host: 'second' });
      expect((await engine.docker.getImage(image).inspect()).Id).toBe(id);
      const again = await runCli(['--home', h.daemon.home, 'sandbox', 'build', '--image', image, '--host', 'second', '--json'], { env });
      expect(again.json()).toMatchObject({ id, copied: false });
    } finally {
      await docker.docker.getImage(image).remove().catch(() => undefined);
      await engine.docker.getImage(image).remove().catch(() => undefined);
    }
  });
});

describe.skipIf(!docker.available)('one Docker engine without sandbox.hosts', () => {
  let h: EngineHarness;
  let conversations: Conversations;

  beforeAll(async () => {
    h = await startEngine({ env: { ERRAND_SANDBOX_DRIVER: 'docker', ERRAND_SANDBOX_IMAGE: docker.image, ERRAND_SANDBOX_WARM_POOL_SIZE: '0' } });
    conversations = new Conversations(h.model);
  });

  afterAll(async () => {
    await h?.close();
  });

  it('lists the engine as the one host "local", places runs as before without naming a host, and knows no label', async () => {
    const status = (await h.daemon.api('GET', '/v1/status')).body.sandbox;
    expect(status.hosts).toEqual([
      {
        name: 'local',
        url: 'unix:///var/run/docker.sock',
        state: 'up',
        problem: null,
        // limits.max_concurrent_runs, and sandbox.memory_mb for each.
        capacity: { runs: 4, memory_mb: 4 * 2048 },
        load: { runs: 0, memory_mb: 0 },
        pool: { size: 0, ready: 0 },
        runtime: status.runtime,
        labels: [],
        firewall: { required: true, installed: status.firewall.installed, detail: status.firewall.detail },
      },
    ]);
    expect(status.firewall.installed).toBe(true);

    const run = await waitForRun(h.daemon, await createRun(h.daemon, { prompt: conversations.prompt([done]) }));
    expect(run).toMatchObject({ status: 'succeeded', sandbox: { label: null, host: null } });
    const refused = await h.daemon.api('POST', '/v1/runs', { prompt: 'p', sandbox_label: 'far' });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 'unknown_sandbox_label', param: 'sandbox_label' });
  });
});
