import { existsSync, readFileSync } from 'node:fs';
import { isIPv4 } from 'node:net';
import { execa } from 'execa';
import { FORBIDDEN_IPV4_RANGES } from '../../network/forbidden-ranges.js';
import { SandboxError } from '../sandbox-error.js';

/** Traffic that sandboxes send to the host itself (any of its addresses) goes through this chain, from INPUT. */
export const INPUT_CHAIN = 'ERRAND-SANDBOX-IN';
/** Traffic that sandboxes send elsewhere goes through this chain, from Docker's DOCKER-USER chain. */
export const FORWARD_CHAIN = 'ERRAND-SANDBOX-FWD';
/**
 * Both chains jump here first: the rules of sandboxes whose run goes out through a proxy (issue 23, item 4), which
 * may reach that proxy and their resolvers, and nothing else. Never replaced with the other two, so that a route
 * change leaves the runs' pins in place.
 */
export const PIN_CHAIN = 'ERRAND-SANDBOX-PIN';

/** Where a pinned sandbox may connect: the proxy's addresses and its port. */
export interface ProxyPin {
  addresses: readonly string[];
  port: number;
}

export interface FirewallOptions {
  /** The sandbox network's bridge interface. */
  bridge: string;
  /**
   * Resolvers Docker's embedded DNS forwards to from inside the sandboxes' network namespace; they often sit in a
   * private range and must stay reachable on port 53 (and only there). Defaults to the IPv4 nameservers of
   * /etc/resolv.conf.
   */
  nameservers?: readonly string[];
  /** The host's directly connected networks and gateways (see `host-routes.ts`), dropped like the special ranges. */
  connectedNetworks: readonly string[];
}

/**
 * The rules that isolate sandboxes, as `iptables -S` prints them. Replies to connections the host opened (the
 * daemon talking to a supervisor) are let through first; everything else a sandbox sends to the host is refused, and
 * forwarded traffic to the special-purpose ranges (the IPv4 ranges the URL guard refuses too, `forbidden-ranges.ts`)
 * and to the host's connected networks is dropped, except DNS to the host's own resolvers.
 */
export function sandboxFirewallRules(options: FirewallOptions): { inputHook: string; forwardHook: string; rules: string[] } {
  const nameservers = options.nameservers ?? hostNameservers();
  const rules = [
    `-A ${INPUT_CHAIN} -m conntrack --ctstate RELATED,ESTABLISHED -j ACCEPT`,
    `-A ${INPUT_CHAIN} -j ${PIN_CHAIN}`,
    `-A ${INPUT_CHAIN} -p tcp -j REJECT --reject-with tcp-reset`,
    `-A ${INPUT_CHAIN} -j DROP`,
    `-A ${FORWARD_CHAIN} -m conntrack --ctstate RELATED,ESTABLISHED -j RETURN`,
    `-A ${FORWARD_CHAIN} -j ${PIN_CHAIN}`,
    ...nameservers.filter((ip) => !ip.startsWith('127.')).flatMap((ip) => [
      `-A ${FORWARD_CHAIN} -d ${ip}/32 -p udp -m udp --dport 53 -j RETURN`,
      `-A ${FORWARD_CHAIN} -d ${ip}/32 -p tcp -m tcp --dport 53 -j RETURN`,
    ]),
    ...[...new Set([...FORBIDDEN_IPV4_RANGES.map(({ range }) => range), ...options.connectedNetworks])].map(
      (range) => `-A ${FORWARD_CHAIN} -d ${range} -j DROP`,
    ),
    `-A ${FORWARD_CHAIN} -j RETURN`,
  ];
  return {
    inputHook: `-A INPUT -i ${options.bridge} -j ${INPUT_CHAIN}`,
    forwardHook: `-A DOCKER-USER -i ${options.bridge} -j ${FORWARD_CHAIN}`,
    rules,
  };
}

/**
 * Where iptables runs: this host (`localIptables`), or a helper container on another engine's host
 * (`host-firewall.ts`). Both install the same rules through `installSandboxFirewall`.
 */
export interface IptablesRunner {
  /** Runs `iptables -w ...args` and answers what it printed. */
  iptables(args: readonly string[]): Promise<string>;
  /** Feeds `input` to `iptables-restore -w --noflush`. */
  restore(input: string): Promise<void>;
}

export const localIptables: IptablesRunner = {
  iptables: async (args) => (await execa('iptables', ['-w', ...args])).stdout,
  restore: async (input) => {
    await execa('iptables-restore', ['-w', '--noflush'], { input });
  },
};

/**
 * The `iptables-restore --noflush` input that replaces both chains with the rules: one transaction, so that no
 * sandbox ever sees a half-written chain. The pin chain is not declared here, since declaring it would empty it.
 */
export function sandboxFirewallRestoreInput(rules: readonly string[]): string {
  return ['*filter', `:${INPUT_CHAIN} - [0:0]`, `:${FORWARD_CHAIN} - [0:0]`, ...rules, 'COMMIT', ''].join('\n');
}

/**
 * Installs the sandbox rules, idempotently: both chains are replaced in one `iptables-restore` transaction, and the
 * jumps into them are put first in INPUT and DOCKER-USER unless already there. Throws a `SandboxError` when
 * iptables cannot be used, because sandboxes must not run unisolated.
 */
export async function installSandboxFirewall(options: FirewallOptions, runner: IptablesRunner = localIptables): Promise<void> {
  const { inputHook, forwardHook, rules } = sandboxFirewallRules(options);
  await runner.iptables(['-S', 'DOCKER-USER']).catch((error: unknown) => {
    throw new SandboxError(
      `docker sandboxes need iptables to fence their network off from the host and private addresses, and ` +
        `iptables is not usable here (run errandd as root on a host where Docker manages iptables, or set ` +
        `sandbox.driver to local): ${messageOf(error)}`,
    );
  });
  try {
    // Made once and never declared in the transaction, which would empty it.
    await runner.iptables(['-N', PIN_CHAIN]).catch(async (error: unknown) => {
      if (!(await runner.iptables(['-S', PIN_CHAIN]).then(() => true, () => false))) throw error;
    });
    await runner.restore(sandboxFirewallRestoreInput(rules));
    await ensureFirst(inputHook, runner);
    await ensureFirst(forwardHook, runner);
  } catch (error) {
    throw new SandboxError(`installing the sandbox firewall rules failed: ${messageOf(error)}`);
  }
}

/**
 * The pin of one sandbox, as `iptables -S` prints it: its proxy's addresses on the proxy's port are accepted (also
 * on the host's own addresses, which INPUT would refuse), DNS to the host's resolvers goes on to the usual rules (so
 * a proxy named by host name can be found), and everything else it sends is refused.
 */
export function pinRules(source: string, pin: ProxyPin, nameservers: readonly string[] = hostNameservers()): string[] {
  const from = `-A ${PIN_CHAIN} -s ${source}/32`;
  return [
    ...pin.addresses.map((address) => `${from} -d ${address}/32 -p tcp -m tcp --dport ${pin.port} -j ACCEPT`),
    ...nameservers.filter((ip) => !ip.startsWith('127.')).flatMap((ip) => [
      `${from} -d ${ip}/32 -p udp -m udp --dport 53 -j RETURN`,
      `${from} -d ${ip}/32 -p tcp -m tcp --dport 53 -j RETURN`,
    ]),
    `${from} -p tcp -j REJECT --reject-with tcp-reset`,
    `${from} -j DROP`,
  ];
}

/** Pins the sandbox at `source` to its proxy, replacing any pin its address had (one a dead daemon left). */
export async function pinSandbox(source: string, pin: ProxyPin, nameservers?: readonly string[], runner: IptablesRunner = localIptables): Promise<void> {
  const stale = await pinnedRules(source, runner);
  const lines = [...stale.map((rule) => rule.replace(/^-A /, '-D ')), ...pinRules(source, pin, nameservers)];
  try {
    await runner.restore(['*filter', ...lines, 'COMMIT', ''].join('\n'));
  } catch (error) {
    throw new SandboxError(`fencing the sandbox off to its proxy failed: ${messageOf(error)}`);
  }
}

/** Removes the pin of the sandbox at `source`, if it has one. */
export async function unpinSandbox(source: string, runner: IptablesRunner = localIptables): Promise<void> {
  const rules = await pinnedRules(source, runner);
  if (rules.length === 0) return;
  await runner.restore(['*filter', ...rules.map((rule) => rule.replace(/^-A /, '-D ')), 'COMMIT', ''].join('\n'));
}

/** The pin rules of the sandbox at `source`, as `iptables -S` prints them. */
export async function pinnedRules(source: string, runner: IptablesRunner = localIptables): Promise<string[]> {
  const listed = await runner.iptables(['-S', PIN_CHAIN]).catch(() => '');
  return listed.split('\n').filter((line) => line.startsWith(`-A ${PIN_CHAIN} -s ${source}/32 `));
}

/** The installed sandbox rules and the jumps into them, as `iptables -S` prints them; empty when not installed. */
export async function listSandboxFirewallRules(runner: IptablesRunner = localIptables): Promise<string[]> {
  // One listing of the filter table, not one per chain: on a remote host each is a command in the helper, and the
  // check runs before every run's sandbox there is handed over.
  const listed = await runner.iptables(['-S']).catch(() => '');
  const hooked = (chain: string) => (line: string) => line.startsWith(`-A ${chain} `) && (line.includes(INPUT_CHAIN) || line.includes(FORWARD_CHAIN));
  const own = (line: string) => line.startsWith(`-A ${INPUT_CHAIN} `) || line.startsWith(`-A ${FORWARD_CHAIN} `);
  const lines = listed.split('\n');
  return [...lines.filter(hooked('INPUT')), ...lines.filter(hooked('DOCKER-USER')), ...lines.filter(own)];
}

/** Makes `rule` (an `-A CHAIN ...` line) the first of its chain, exactly once. */
async function ensureFirst(rule: string, runner: IptablesRunner): Promise<void> {
  const [, chain, ...spec] = rule.split(' ');
  if (chain === undefined) throw new Error(`malformed rule ${rule}`);
  const listed = (await runner.iptables(['-S', chain])).split('\n').filter((line) => line.startsWith('-A '));
  const copies = listed.filter((line) => line === rule).length;
  if (listed[0] === rule && copies === 1) return;
  for (let i = 0; i < copies; i++) await runner.iptables(['-D', chain, ...spec]);
  await runner.iptables(['-I', chain, '1', ...spec]);
}

export function hostNameservers(path = '/etc/resolv.conf'): string[] {
  return existsSync(path) ? parseNameservers(readFileSync(path, 'utf8')) : [];
}

/** The IPv4 nameservers a resolv.conf names (another host's, read through its firewall helper, or this one's). */
export function parseNameservers(resolvConf: string): string[] {
  return resolvConf
    .split('\n')
    .map((line) => /^\s*nameserver\s+(\S+)/.exec(line)?.[1])
    .filter((ip): ip is string => ip !== undefined && isIPv4(ip));
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message.split('\n')[0] ?? error.message : String(error);
}
