import { createHash } from 'node:crypto';
import { PassThrough } from 'node:stream';
import type Docker from 'dockerode';
import type { Logger } from 'pino';
import type { FirewallReport } from '../driver.js';
import { connectedNetworks, type HostRoute } from '../../network/host-routes.js';
import { SandboxError } from '../sandbox-error.js';
import { checkSandboxFirewall } from './firewall-check.js';
import { isNotFound } from './image-exists.js';
import { installSandboxFirewall, listSandboxFirewallRules, parseNameservers, pinSandbox, unpinSandbox, type IptablesRunner, type ProxyPin } from './sandbox-firewall.js';

/** Set on the firewall helper containers, to the name of the host whose rules they keep. */
export const FIREWALL_HELPER_LABEL = 'errand.firewall-helper';

export interface HostFirewallOptions {
  /** The sandbox image (it has iptables and iproute2; see templates/sandbox/Dockerfile). */
  image: string;
  /** The sandbox network's bridge interface as that engine has it (`sandbox-network.ts`). */
  bridge: string;
  /** The host's name in `sandbox.hosts`, for the helper's label and name, and for what is reported. */
  host: string;
  /**
   * The labels of the daemon that starts the helper, as its sandboxes carry them (`labels.ts`: the sandbox label, the
   * installation, the daemon instance and process), so that the orphan sweep removes the helper of a dead daemon.
   */
  labels: Record<string, string>;
  /**
   * The helper's network: `host` (the default), so that its iptables are the host's. Tests give it a namespace of its
   * own (`container:<id>`, or a network of theirs), so that they never touch the real host's rules.
   */
  networkMode?: string;
}

/**
 * Installs the sandbox firewall on the host of a Docker engine the daemon reaches remotely: the same rules as on the
 * daemon's own host (`sandbox-firewall.ts`, from that host's connected networks and nameservers), applied through a
 * helper container the daemon runs there. The helper runs the sandbox image on the host's network with NET_ADMIN (and
 * NET_RAW, which iptables-legacy needs) and nothing else, and sleeps between the commands the daemon runs in it; it is
 * labelled like the daemon's sandboxes, so the orphan sweep removes it once its daemon is gone. Answers whether the
 * rules are in place afterwards, never throws: a host whose firewall cannot be installed is reported, not crashed on.
 */
export async function installHostFirewall(docker: Docker, options: HostFirewallOptions): Promise<FirewallReport> {
  try {
    const helper = await firewallHelper(docker, options);
    const [routes, resolvConf] = await Promise.all([helper.run(['ip', '-json', '-4', 'route', 'show', 'table', 'all']), helper.run(['cat', '/etc/resolv.conf'])]);
    const runner = await helper.iptables();
    await installSandboxFirewall(
      { bridge: options.bridge, nameservers: parseNameservers(resolvConf), connectedNetworks: connectedNetworks(JSON.parse(routes === '' ? '[]' : routes) as HostRoute[], 4) },
      runner,
    );
    return await check(runner, options);
  } catch (error) {
    return { installed: false, detail: `on ${options.host}: ${messageOf(error)}` };
  }
}

/** Whether the sandbox firewall is in place on the engine's host, as iptables lists it now through the helper. */
export async function checkHostFirewall(docker: Docker, options: HostFirewallOptions): Promise<FirewallReport> {
  try {
    return await check(await (await firewallHelper(docker, options)).iptables(), options);
  } catch (error) {
    return { installed: false, detail: `on ${options.host}: ${messageOf(error)}` };
  }
}

/**
 * The check a remote host's firewall gets before each run's sandbox there is handed over (and at each host check in
 * between): one `iptables -S` in the daemon's helper, whose container and iptables backend are found once and kept
 * while the rules are found in place. A check that finds them missing looks for the helper and the backend again and
 * checks once more before it says so, in case the helper was gone rather than the rules. Never throws.
 */
export function hostFirewallProbe(docker: Docker, options: HostFirewallOptions): () => Promise<FirewallReport> {
  let runner: IptablesRunner | null = null;
  const fresh = async (): Promise<FirewallReport> => {
    try {
      runner = await (await firewallHelper(docker, options)).iptables();
      return await check(runner, options);
    } catch (error) {
      runner = null;
      return { installed: false, detail: `on ${options.host}: ${messageOf(error)}` };
    }
  };
  return async () => {
    if (runner === null) return fresh();
    const report = await check(runner, options);
    return report.installed ? report : fresh();
  };
}

/** What a docker sandbox on the host needs of its firewall: the pin of a run that leaves through a proxy (issue 23). */
export interface HostFirewallPins {
  /** Lets the sandbox at `address` on the host reach only its run's proxy (and the host's resolvers) from now on. */
  pin(address: string, pin: ProxyPin): Promise<void>;
  /** Lifts the pin of a sandbox that is gone; failures are logged, not thrown (it runs as the sandbox is removed). */
  unpin(address: string): Promise<void>;
}

/**
 * The pins of the host's sandboxes, written in its `ERRAND-SANDBOX-PIN` chain through the helper, as the daemon's
 * firewall keeper writes them on its own host: the same rules (`pinRules`), with the host's own resolvers.
 */
export function hostFirewallPins(docker: Docker, options: HostFirewallOptions, logger: Logger): HostFirewallPins {
  const onHost = async () => {
    const helper = await firewallHelper(docker, options);
    const [runner, resolvConf] = await Promise.all([helper.iptables(), helper.run(['cat', '/etc/resolv.conf'])]);
    return { runner, nameservers: parseNameservers(resolvConf) };
  };
  return {
    async pin(address, pin) {
      try {
        const { runner, nameservers } = await onHost();
        await pinSandbox(address, pin, nameservers, runner);
      } catch (error) {
        if (error instanceof SandboxError) throw error;
        throw new SandboxError(`fencing the sandbox off to its proxy on ${options.host} failed: ${messageOf(error)}`);
      }
    },
    async unpin(address) {
      try {
        await unpinSandbox(address, (await onHost()).runner);
      } catch (error) {
        logger.warn({ err: error, address, host: options.host }, 'removing a sandbox’s proxy pin failed');
      }
    },
  };
}

/** Removes the daemon's firewall helper on the engine, if it runs one (when the daemon stops); the rules stay. */
export async function removeHostFirewallHelper(docker: Docker, options: Pick<HostFirewallOptions, 'host' | 'labels'>): Promise<void> {
  try {
    await docker.getContainer(helperName(options)).remove({ force: true });
  } catch (error) {
    if (!isNotFound(error)) throw error;
  }
}

async function check(runner: IptablesRunner, options: HostFirewallOptions): Promise<FirewallReport> {
  const report = await checkSandboxFirewall(
    options.bridge,
    () => listSandboxFirewallRules(runner),
    'the daemon installs them through its helper, or run the script of `errand sandbox firewall --print` there (docs/scale-out.md)',
  );
  return { installed: report.installed, detail: `on ${options.host}: ${report.detail}` };
}

interface FirewallHelper {
  /** Runs a command in the helper and answers its output; throws with its error output when it fails. */
  run(cmd: string[]): Promise<string>;
  /** iptables in the helper, of the backend (nft or legacy) whose tables hold Docker's DOCKER-USER chain. */
  iptables(): Promise<IptablesRunner>;
}

/**
 * The daemon's helper on the engine, started unless it runs. Its name derives from the host and the daemon's labels,
 * so one daemon has one helper per host, and two callers that race to create it end up with that one.
 */
async function firewallHelper(docker: Docker, options: HostFirewallOptions): Promise<FirewallHelper> {
  const name = helperName(options);
  let container = docker.getContainer(name);
  const state = await container.inspect().then(
    (inspected) => (inspected.State.Running ? 'running' : 'stopped'),
    (error: unknown) => {
      if (isNotFound(error)) return 'missing' as const;
      throw error;
    },
  );
  if (state === 'missing') {
    try {
      container = await docker.createContainer(helperSpec(name, options));
    } catch (error) {
      if ((error as { statusCode?: unknown }).statusCode !== 409) throw new SandboxError(`starting the firewall helper failed: ${messageOf(error)}`);
    }
  }
  if (state !== 'running') {
    await container.start().catch((error: unknown) => {
      // 304: started meanwhile by a racing caller.
      if ((error as { statusCode?: unknown }).statusCode !== 304) throw new SandboxError(`starting the firewall helper failed: ${messageOf(error)}`);
    });
  }
  const run = (cmd: string[]) => execIn(docker, container, cmd);
  return { run, iptables: () => iptablesIn(run, options.host) };
}

function helperSpec(name: string, options: HostFirewallOptions): Docker.ContainerCreateOptions {
  return {
    name,
    Image: options.image,
    // Not the supervisor: a process that only waits, so that the daemon's commands have a container to run in.
    Entrypoint: ['sleep', 'infinity'],
    Cmd: [],
    User: '0:0',
    Labels: { ...options.labels, [FIREWALL_HELPER_LABEL]: options.host },
    HostConfig: {
      NetworkMode: options.networkMode ?? 'host',
      Privileged: false,
      CapDrop: ['ALL'],
      // NET_RAW: iptables-legacy talks to the kernel through a raw socket; nft needs only NET_ADMIN.
      CapAdd: ['NET_ADMIN', 'NET_RAW'],
      SecurityOpt: ['no-new-privileges'],
      ReadonlyRootfs: true,
      // iptables' lock file (/run/xtables.lock).
      Tmpfs: { '/run': 'rw,noexec,nosuid,nodev,size=1m' },
      Memory: 64 * 1024 * 1024,
      PidsLimit: 32,
      Init: true,
      Binds: [],
      RestartPolicy: { Name: 'no' },
      LogConfig: { Type: 'json-file', Config: { 'max-size': '1m', 'max-file': '1' } },
    },
  };
}

/**
 * iptables in the helper, of the host's backend: Docker on the host wrote DOCKER-USER with the iptables its host
 * has, nft or legacy, and rules written with the other would sit in tables the host's traffic never meets.
 */
async function iptablesIn(run: (cmd: string[]) => Promise<string>, host: string): Promise<IptablesRunner> {
  for (const backend of ['nft', 'legacy'] as const) {
    const found = await run([`iptables-${backend}`, '-w', '-S', 'DOCKER-USER']).then(() => true, () => false);
    if (!found) continue;
    return {
      iptables: (args) => run([`iptables-${backend}`, '-w', ...args]),
      restore: async (input) => {
        // The input as an argument rather than on stdin: it is a few kilobytes, and an exec's stdin needs a hijacked stream.
        await run(['sh', '-c', `printf '%s' "$1" | iptables-${backend}-restore -w --noflush`, 'sh', input]);
      },
    };
  }
  throw new SandboxError(
    `${host} has no DOCKER-USER chain in iptables (nft or legacy): its Docker engine does not manage iptables, so sandboxes there cannot be fenced off`,
  );
}

/** Runs `cmd` in the container and answers its standard output; rejects with its error output when it exits non-zero. */
async function execIn(docker: Docker, container: Docker.Container, cmd: string[]): Promise<string> {
  const exec = await container.exec({ Cmd: cmd, AttachStdout: true, AttachStderr: true, User: '0:0' });
  const stream = await exec.start({ hijack: true, stdin: false });
  const stdout: Buffer[] = [];
  const stderr: Buffer[] = [];
  const out = new PassThrough().on('data', (chunk: Buffer) => stdout.push(chunk));
  const err = new PassThrough().on('data', (chunk: Buffer) => stderr.push(chunk));
  docker.modem.demuxStream(stream, out, err);
  await new Promise<void>((resolve, reject) => {
    stream.once('end', resolve);
    stream.once('close', resolve);
    stream.once('error', reject);
  });
  let inspected = await exec.inspect();
  // The stream can end a moment before the engine records the exit.
  while (inspected.Running) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    inspected = await exec.inspect();
  }
  const { ExitCode } = inspected;
  if (ExitCode !== 0) {
    const said = Buffer.concat(stderr).toString('utf8').trim().split('\n')[0] ?? '';
    throw new Error(`${cmd[0]} exited with ${ExitCode}${said === '' ? '' : `: ${said}`}`);
  }
  return Buffer.concat(stdout).toString('utf8').trim();
}

function helperName(options: Pick<HostFirewallOptions, 'host' | 'labels'>): string {
  const owner = createHash('sha256')
    .update(JSON.stringify(Object.entries(options.labels).sort(([a], [b]) => a.localeCompare(b))))
    .digest('hex')
    .slice(0, 12);
  return `errand-firewall-${options.host.replace(/[^A-Za-z0-9_.-]/g, '_')}-${owner}`;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? (error.message.split('\n')[0] ?? error.message) : String(error);
}
