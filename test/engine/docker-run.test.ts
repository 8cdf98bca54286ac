/**
 * Runs through the real daemon on the docker sandbox driver (issue 5): code and browser tasks, a fork bomb and a
 * memory hog that end only their own run, a cancelled run's container removed within 5 s, a SIGKILLed daemon's
 * containers removed after restart, and the daemon's port out of a sandbox's reach. Two installations on one engine
 * (issue 10) leave each other's containers alone while their daemons live.
 */
import type Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installationId } from '../../src/runtime/installation-id.js';
import { DAEMON_LABEL, INSTALLATION_LABEL, RUN_LABEL, SANDBOX_LABEL } from '../../src/sandbox/docker/labels.js';
import { isNotFound } from '../../src/sandbox/docker/image-exists.js';
import { orphanReason } from '../../src/sandbox/docker/orphans.js';
import { ensureSandboxNetwork } from '../../src/sandbox/docker/sandbox-network.js';
import { dockerAvailability } from '../fixtures/docker.js';
import { tempDir } from '../fixtures/temp-dir.js';
import { startDaemon, type TestDaemon } from '../fixtures/test-daemon.js';
import { hold, toolResults, toolUse, type AnthropicRequest, type AnthropicTurn, type ScriptedAnthropic } from '../fixtures/scripted-anthropic.js';
import { createRun, startEngine, stepsOf, until, waitForRun, type EngineHarness } from './harness.js';

const docker = await dockerAvailability();

/** The bound on removing a cancelled run's container. */
const CANCEL_REMOVAL_MS = 5_000;
/** Where a browser task's page is served, inside its own sandbox (a sandbox cannot reach the host's ports). */
const PAGE_PORT = 8000;
const PRICE_PAGE = `<!doctype html><title>Widget shop</title>
<body style="font-family: sans-serif"><h1>Blue widget</h1><p id="price">Price: 19.99 EUR</p><p>In stock</p></body>`;

const dockerEnv = (extra: Record<string, string> = {}): Record<string, string> => ({
  ERRAND_SANDBOX_DRIVER: 'docker',
  ERRAND_SANDBOX_IMAGE: docker.image,
  ERRAND_SANDBOX_WARM_POOL_SIZE: '1',
  ...extra,
});

/**
 * One script per conversation, so that runs that overlap each get their own turns in order. A run's prompt names
 * its conversation (`[conversation: NAME]`); every request to the scripted model is answered from that script.
 */
class Conversations {
  private readonly scripts = new Map<string, AnthropicTurn[]>();

  constructor(model: ScriptedAnthropic) {
    // Every turn of the model's own queue defers to the conversation; more than any test here can use.
    model.script(Array.from({ length: 500 }, () => (request: AnthropicRequest) => this.next(request)));
  }

  add(name: string, turns: AnthropicTurn[]): string {
    this.scripts.set(name, [...turns]);
    return `[conversation: ${name}]`;
  }

  remaining(name: string): number {
    return this.scripts.get(name)?.length ?? 0;
  }

  private next(request: AnthropicRequest): AnthropicTurn {
    const name = /\[conversation: ([\w-]+)\]/.exec(JSON.stringify(request.body.messages[0]?.content))?.[1];
    const turn = name === undefined ? undefined : this.scripts.get(name)?.shift();
    if (turn === undefined) throw new Error(`no scripted turn left for conversation ${name ?? '(none named)'}`);
    return turn;
  }
}

/** Every sandbox container of the installation on `home`, whichever daemon process started it. */
function containersOf(home: string, extraLabels: string[] = []): Promise<Docker.ContainerInfo[]> {
  return docker.docker.listContainers({
    all: true,
    filters: { label: [`${SANDBOX_LABEL}=1`, `${INSTALLATION_LABEL}=${installationId(home)}`, ...extraLabels] },
  });
}

/** A run's container: labelled with the run when started for it, named after it when taken from the warm pool. */
function isRunContainer(container: Docker.ContainerInfo, runId: string): boolean {
  return container.Labels[RUN_LABEL] === runId || container.Names.some((name) => name.includes(runId));
}

function runContainer(home: string, runId: string): Promise<Docker.ContainerInfo> {
  return until(`the container of ${runId}`, async () => (await containersOf(home)).find((c) => isRunContainer(c, runId)));
}

async function containerExists(id: string): Promise<boolean> {
  return (await docker.docker.listContainers({ all: true, filters: { id: [id] } })).length > 0;
}

/** Stops the daemon gracefully (its driver removes its warm pool), then removes anything of its home still left. */
async function closeEngine(h: EngineHarness | undefined): Promise<void> {
  if (h === undefined) return;
  await h.daemon.stop();
  const left = await containersOf(h.daemon.home);
  await h.close();
  for (const container of left) {
    await docker.docker.getContainer(container.Id).remove({ force: true }).catch(() => undefined);
  }
}

const resultText = (request: AnthropicRequest): string => toolResults(request)[0]?.text ?? '';

interface GatedTurn {
  turn: (request: AnthropicRequest) => Promise<AnthropicTurn>;
  /** The request, once it is here. */
  arrived: Promise<AnthropicRequest>;
  release(): void;
}

/**
 * A turn that waits for `release()` and is then computed from its request. Not the fixture's `hold()`: every turn
 * here is handed out by a function turn (`Conversations`), whose result the scripted server awaits, and a held turn
 * wrapping a function has a callable `then`, so it is taken for a promise.
 */
function gated(compute: (request: AnthropicRequest) => AnthropicTurn): GatedTurn {
  let arrive!: (request: AnthropicRequest) => void;
  let release!: () => void;
  const arrived = new Promise<AnthropicRequest>((resolve) => (arrive = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  return {
    arrived,
    release,
    async turn(request) {
      arrive(request);
      await released;
      return compute(request);
    },
  };
}

describe.skipIf(!docker.available)('runs on the docker driver', () => {
  let h: EngineHarness;
  let conversations: Conversations;

  beforeAll(async () => {
    h = await startEngine({ env: dockerEnv() });
    conversations = new Conversations(h.model);
  });

  afterAll(async () => {
    await closeEngine(h);
  });

  it('runs a code task in a container of its own, extracts the result, and removes the container when the run ends', async () => {
    const answered = gated((request: AnthropicRequest) => {
      const answer = Number(/stdout:\n(\d+)/.exec(resultText(request))?.[1]);
      return toolUse('finish', { result: { answer }, confidence: 'high', matched_text: String(answer) });
    });
    const marker = conversations.add('code', [
      toolUse('run_code', { language: 'python', code: 'import os, socket\nprint(6 * 7)\nprint(os.getuid())\nprint(socket.gethostname())' }),
      answered.turn,
    ]);
    const runId = await createRun(h.daemon, {
      prompt: `${marker} Compute six times seven`,
      output_schema: { type: 'object', required: ['answer'], properties: { answer: { type: 'integer' } } },
    });
    const request = await answered.arrived;
    const container = await runContainer(h.daemon.home, runId);
    answered.release();
    const run = await waitForRun(h.daemon, runId);

    expect(run).toMatchObject({ status: 'succeeded', result: { answer: 42 }, confidence: 'high', failure_reason: null, attempt: 1 });
    expect(run.evidence.matched_text).toBe('42');
    const output = resultText(request);
    expect(output).toContain('exit code 0');
    // The code ran as the image's unprivileged user, in that very container (its host name is the id's start).
    const [, uid, hostName] = /stdout:\n42\n(\d+)\n(\w+)/.exec(output) ?? [];
    expect(uid).toBe('10001');
    expect(hostName).toBeDefined();
    expect(container.Id.startsWith(hostName!)).toBe(true);
    const steps = await stepsOf(h.daemon, runId);
    expect(steps.map((s) => s.name)).toEqual(['claude-sonnet-4-6', 'run_code.python', 'claude-sonnet-4-6', 'finish']);
    // The sandbox's removal starts before the run's final transition, which does not wait for it (issue 24).
    await until('the run\'s container to be removed', async () => !(await containerExists(container.Id)));
  });

  it('runs a browser task against a page served inside its sandbox, with a screenshot as evidence', async () => {
    const serve =
      `mkdir -p site && cat > site/widget.html <<'EOF'\n${PRICE_PAGE}\nEOF\n` +
      `cd site && nohup python3 -m http.server ${PAGE_PORT} --bind 127.0.0.1 >/dev/null 2>&1 &\n` +
      `for i in $(seq 100); do (echo > /dev/tcp/127.0.0.1/${PAGE_PORT}) 2>/dev/null && echo serving && break; sleep 0.1; done`;
    const url = `http://127.0.0.1:${PAGE_PORT}/widget.html`;
    const requests: AnthropicRequest[] = [];
    const seen =
      (turn: (request: AnthropicRequest) => AnthropicTurn) =>
      (request: AnthropicRequest): AnthropicTurn => {
        requests.push(request);
        return turn(request);
      };
    const marker = conversations.add('browser', [
      toolUse('run_code', { language: 'bash', code: serve }),
      seen(() => toolUse('browser', { action: 'navigate', url })),
      seen(() => toolUse('browser', { action: 'read_text' })),
      seen((request) => toolUse('browser', { action: 'screenshot' }, `toolu_shot_${/Price: ([\d.]+) EUR/.exec(resultText(request))?.[1]}`)),
      seen((request) => {
        const shotId = /screenshot id: (art_\w+)/.exec(resultText(request))?.[1];
        const price = Number(/toolu_shot_([\d.]+)/.exec(JSON.stringify(request.body.messages))?.[1]);
        return toolUse('finish', { result: { price, currency: 'EUR' }, confidence: 'high', matched_text: 'Price: 19.99 EUR', evidence_screenshot: shotId });
      }),
    ]);
    const runId = await createRun(h.daemon, {
      prompt: `${marker} What does the blue widget cost?`,
      output_schema: { type: 'object', required: ['price', 'currency'], properties: { price: { type: 'number' }, currency: { type: 'string' } } },
    });
    const run = await waitForRun(h.daemon, runId);

    expect(run).toMatchObject({ status: 'succeeded', result: { price: 19.99, currency: 'EUR' }, confidence: 'high' });
    const [served, navigated, read, shot] = requests.map((request) => toolResults(request)[0]!);
    expect(served!.text).toContain('stdout:\nserving');
    expect(navigated).toMatchObject({ isError: false });
    expect(navigated!.text).toContain('title: Widget shop');
    expect(navigated!.text).toContain('http status: 200');
    expect(read!.text).toContain('Price: 19.99 EUR');
    expect(shot!.images).toHaveLength(1);

    const res = await fetch(run.evidence.screenshot_url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    const body = Buffer.from(await res.arrayBuffer());
    expect(body.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    await until('the run\'s container to be removed', async () => (await containersOf(h.daemon.home)).every((c) => !isRunContainer(c, runId)));
  });

  it('ends only their own runs when run code is a fork bomb or a memory hog; a concurrent run succeeds', async () => {
    // The bomb goes off in a subshell, the shell's one fork (forking the bomb's pipeline itself, the shell would race
    // its first half for the last free pid); then it waits with builtins only and says it got through.
    const bomb = '( :(){ :|:& };: ) &\nend=$((SECONDS + 3)); while [ "$SECONDS" -lt "$end" ]; do true; done\necho bomb-went-off';
    const hog = 'chunks = []\nwhile True:\n    chunks.append(b"x" * (32 * 1024 * 1024))\n';
    const bombReported = gated((request: AnthropicRequest) =>
      toolUse('finish', { result: { got_through: resultText(request).includes('bomb-went-off') }, confidence: 'high' }),
    );
    const hogReported = gated((request: AnthropicRequest) =>
      toolUse('finish', { result: null, failure_reason: 'ambiguous', failure_detail: `the program ended with ${resultText(request).split('\n')[0]}` }),
    );
    const bombMarker = conversations.add('fork-bomb', [toolUse('run_code', { language: 'bash', code: bomb }), bombReported.turn]);
    const hogMarker = conversations.add('memory-hog', [toolUse('run_code', { language: 'python', code: hog }), hogReported.turn]);
    const bystanderMarker = conversations.add('bystander', [
      toolUse('run_code', { language: 'bash', code: 'echo still-here' }),
      (request: AnthropicRequest) => toolUse('finish', { result: { said: /stdout:\n(\S+)/.exec(resultText(request))?.[1] }, confidence: 'high' }),
    ]);

    const bombRun = await createRun(h.daemon, { prompt: `${bombMarker} Set off a fork bomb` });
    const hogRun = await createRun(h.daemon, { prompt: `${hogMarker} Allocate all the memory` });
    const [bombResult, hogResult] = await Promise.all([bombReported.arrived, hogReported.arrived]);
    // Both are still running, their code's damage done (the bomb's processes live on in its container), when the
    // third run starts and runs code of its own.
    const bombContainer = await runContainer(h.daemon.home, bombRun);
    const hogContainer = await runContainer(h.daemon.home, hogRun);
    const bystanderRun = await createRun(h.daemon, { prompt: `${bystanderMarker} Say something` });
    const bystander = await waitForRun(h.daemon, bystanderRun);
    expect(bystander).toMatchObject({ status: 'succeeded', result: { said: 'still-here' } });
    for (const runId of [bombRun, hogRun]) expect((await h.daemon.api('GET', `/v1/runs/${runId}`)).body.status).toBe('running');

    bombReported.release();
    hogReported.release();
    const [bombEnded, hogEnded] = await Promise.all([waitForRun(h.daemon, bombRun), waitForRun(h.daemon, hogRun)]);

    expect(resultText(bombResult)).toContain('stdout:\nbomb-went-off');
    // The bomb did run into the container's process limit.
    expect(resultText(bombResult)).toContain('fork: retry: Resource temporarily unavailable');
    expect(bombEnded).toMatchObject({ status: 'succeeded', result: { got_through: true } });
    const hogOutput = toolResults(hogResult)[0]!;
    expect(hogOutput.isError).toBe(true);
    expect(hogOutput.text).not.toMatch(/^exit code 0/);
    expect(hogEnded).toMatchObject({ status: 'failed', failure_reason: 'ambiguous', failure_detail: `the program ended with ${hogOutput.text.split('\n')[0]}` });
    for (const container of [bombContainer, hogContainer]) await until('the runs\' containers to be removed', async () => !(await containerExists(container.Id)));
  });

  it('removes a cancelled run’s container within 5 s of the cancel response, code still running in it', async () => {
    const marker = conversations.add('cancel', [toolUse('run_code', { language: 'bash', code: 'echo started; sleep 600' })]);
    const runId = await createRun(h.daemon, { prompt: `${marker} Wait for a long time` });
    // The run's container of the moment: it may be created but not started yet (409 to `top`), and a sandbox that
    // missed its start deadline on a loaded host is replaced once (404).
    const container = await until('the sleep to run in the run’s container', async () => {
      const current = (await containersOf(h.daemon.home)).find((c) => isRunContainer(c, runId));
      if (current === undefined) return undefined;
      const top = await docker.docker
        .getContainer(current.Id)
        .top({ ps_args: '-eo pid,args' })
        .catch((error: unknown) => {
          if (isNotFound(error) || (error as { statusCode?: unknown }).statusCode === 409) return null;
          throw error;
        });
      return top?.Processes.some((row: string[]) => row.join(' ').includes('sleep 600')) ? current : undefined;
    });

    const res = await h.daemon.api('POST', `/v1/runs/${runId}/cancel`);
    const deadline = Date.now() + CANCEL_REMOVAL_MS;
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ task_id: runId, status: 'cancelled' });
    while ((await containerExists(container.Id)) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await containerExists(container.Id)).toBe(false);

    expect(await waitForRun(h.daemon, runId)).toMatchObject({ status: 'cancelled' });
    expect(conversations.remaining('cancel')).toBe(0);
  });
});

describe.skipIf(!docker.available)('a daemon on the docker driver, listening on the sandbox bridge', () => {
  let h: EngineHarness;
  let conversations: Conversations;
  let gateway: string;

  beforeAll(async () => {
    // The host's own address on the sandbox network: the one host address a sandbox has a route to. A daemon
    // listening there (or on every interface) is what the firewall must keep sandboxes away from.
    gateway = (await ensureSandboxNetwork(docker.docker)).gateway;
    h = await startEngine({ args: ['--host', gateway], env: dockerEnv({ ERRAND_LIMITS_LEASE_S: '2' }) });
    conversations = new Conversations(h.model);
  });

  afterAll(async () => {
    await closeEngine(h);
  });

  it('cannot be reached from inside a run’s sandbox', async () => {
    const daemonUrl = new URL(h.daemon.url);
    expect(daemonUrl.hostname).toBe(gateway);
    // Reachable from the host at that address: this test talks to the daemon there.
    expect((await h.daemon.api('GET', '/v1/runs')).status).toBe(200);

    const probe = [
      'import socket',
      's = socket.socket()',
      's.settimeout(3)',
      'try:',
      `    s.connect((${JSON.stringify(gateway)}, ${Number(daemonUrl.port)}))`,
      '    print("connected")',
      'except ConnectionRefusedError:',
      '    print("refused")',
      'except OSError as error:',
      '    print("failed", error)',
    ].join('\n');
    const probed = gated((request: AnthropicRequest) =>
      toolUse('finish', { result: { reached: resultText(request).includes('stdout:\nconnected') }, confidence: 'high' }),
    );
    const marker = conversations.add('probe', [toolUse('run_code', { language: 'python', code: probe }), probed.turn]);
    const runId = await createRun(h.daemon, { prompt: `${marker} Call the daemon from the sandbox` });
    const request = await probed.arrived;
    probed.release();

    const output = resultText(request);
    expect(output).toContain('exit code 0');
    expect(output).toMatch(/stdout:\n(refused|failed)/);
    expect(output).not.toContain('connected');
    expect(await waitForRun(h.daemon, runId)).toMatchObject({ status: 'succeeded', result: { reached: false } });
  });

  it('leaves no container of a SIGKILLed daemon after restart, and the re-queued run finishes', async () => {
    const inFlight = hold(toolUse('finish', { result: { from: 'attempt 1' } }));
    const marker = conversations.add('crash', [
      toolUse('run_code', { language: 'bash', code: 'echo first attempt' }),
      inFlight,
      toolUse('run_code', { language: 'bash', code: 'echo second attempt' }),
      toolUse('finish', { result: { from: 'attempt 2' }, confidence: 'high' }),
    ]);
    const runId = await createRun(h.daemon, { prompt: `${marker} Survive a crash` });
    await inFlight.arrived;
    const container = await runContainer(h.daemon.home, runId);
    const killedInstance = container.Labels[DAEMON_LABEL];
    expect(killedInstance).toMatch(/^\w+$/);

    await h.daemon.kill();
    await inFlight.disconnected;
    await h.daemon.restart();
    await until(
      'the killed daemon’s containers to be removed',
      async () => (await containersOf(h.daemon.home, [`${DAEMON_LABEL}=${killedInstance}`])).length === 0,
      30_000,
    );
    expect(await containerExists(container.Id)).toBe(false);

    const run = await waitForRun(h.daemon, runId);
    expect(run).toMatchObject({ status: 'succeeded', attempt: 2, result: { from: 'attempt 2' } });
    expect(conversations.remaining('crash')).toBe(0);
    const steps = await stepsOf(h.daemon, runId);
    expect(steps.filter((s) => s.attempt === 2).map((s) => s.name)).toEqual(['claude-sonnet-4-6', 'run_code.bash', 'claude-sonnet-4-6', 'finish']);
    await until('the run\'s container to be removed', async () => (await containersOf(h.daemon.home)).every((c) => !isRunContainer(c, runId)));
  });
});

describe.skipIf(!docker.available)('two installations on one engine', () => {
  // Both daemons see their data directory at one path, as two containers or two users' ~/.errand would.
  const sharedPath = tempDir('errand-shared-path-');
  const homes = { a: tempDir('errand-installation-a-'), b: tempDir('errand-installation-b-') };
  const daemons: TestDaemon[] = [];
  /**
   * The daemon's command, seeing `real` at the shared path. In a pid namespace of its own, as in a container, no other
   * daemon can prove it dead: the test suite's other daemons on this engine then cannot remove its containers before
   * the daemon this test means to.
   */
  const wrapFor = (real: string, ownPidNamespace = false): string[] => [
    'unshare',
    '--mount',
    '--propagation',
    'private',
    ...(ownPidNamespace ? ['--pid', '--fork', '--kill-child=SIGKILL', '--mount-proc'] : []),
    '--',
    'sh',
    '-c',
    'mount --bind "$1" "$2" && shift 2 && exec "$@"',
    'sh',
    real,
    sharedPath.path,
  ];
  const start = async (real: string, ownPidNamespace = false): Promise<TestDaemon> => {
    const daemon = await startDaemon({ home: sharedPath.path, env: dockerEnv(), wrap: wrapFor(real, ownPidNamespace) });
    daemons.push(daemon);
    return daemon;
  };
  const logLines = (daemon: TestDaemon) =>
    daemon
      .logs()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { msg: string; container?: string; reason?: string });
  const checked = (daemon: TestDaemon) =>
    until('the daemon to check the engine for orphans', async () => logLines(daemon).some((line) => line.msg === 'checked the engine for orphaned sandbox containers'));
  const removals = (daemon: TestDaemon) => logLines(daemon).filter((line) => line.msg === 'removed orphaned sandbox container');
  const pooled = (real: string) => until(`a pooled container of ${real}`, async () => (await containersOf(real)).find((c) => c.State === 'running'));
  const nameOf = (container: Docker.ContainerInfo) => container.Names[0]!.replace(/^\//, '');

  afterAll(async () => {
    for (const daemon of daemons) await daemon.cleanup();
    for (const home of [homes.a, homes.b]) {
      for (const container of await containersOf(home.path)) await docker.docker.getContainer(container.Id).remove({ force: true }).catch(() => undefined);
      home.remove();
    }
    sharedPath.remove();
  });

  it('leave each other’s live containers alone; a SIGKILLed daemon’s are removed by its successor, or as provably dead', async () => {
    const a = await start(homes.a.path, true);
    const a1Container = await pooled(homes.a.path);
    const b = await start(homes.b.path);
    await checked(b);
    expect(installationId(homes.a.path)).not.toBe(installationId(homes.b.path));
    expect(await containerExists(a1Container.Id)).toBe(true);
    expect(removals(b).map((line) => line.container)).not.toContain(nameOf(a1Container));
    const b1Container = await pooled(homes.b.path);

    // A's next daemon removes what its SIGKILLed predecessor left, and nothing of B's.
    await a.kill();
    await a.restart({ wrap: wrapFor(homes.a.path) });
    await checked(a);
    expect(await containerExists(a1Container.Id)).toBe(false);
    expect(removals(a)).toContainEqual(
      expect.objectContaining({ container: nameOf(a1Container), reason: 'left by an earlier daemon of this data directory' }),
    );
    expect(await containerExists(b1Container.Id)).toBe(true);

    // Once A's daemon (now in this pid namespace) is dead, its containers are anybody's to remove, although they are
    // another installation's: B's next daemon removes them, unless one of the suite's other daemons got there first.
    const a2Container = await pooled(homes.a.path);
    await a.kill();
    expect(orphanReason(a2Container.Labels, { instanceId: 'b-next', installationId: installationId(homes.b.path) })).toBe('its daemon is provably dead');
    await b.restart();
    await checked(b);
    expect(await containerExists(a2Container.Id)).toBe(false);
    for (const line of removals(b).filter((l) => l.container === nameOf(a2Container))) expect(line.reason).toBe('its daemon is provably dead');
  });
});
