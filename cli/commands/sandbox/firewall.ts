import type { Command } from 'commander';
import type { HostRoute } from '../../../src/network/host-routes.js';
import { UsageError, UserError } from '../../cli-errors.js';
import { contextOf, type CliContext } from '../../context.js';
import { readText } from '../../flag-parsers.js';
import { examples } from '../../help.js';

export interface SandboxFirewallOptions {
  print: boolean;
  /** `ip -json -4 route show table all` of the host, from a file or `-` (stdin); this host's when absent. */
  routes?: string;
  /** The host's resolv.conf; this host's /etc/resolv.conf when absent. */
  resolvConf?: string;
  bridge?: string;
}

export function registerSandboxFirewall(sandbox: Command): void {
  sandbox
    .command('firewall')
    .description(
      "print the shell script that installs the sandbox firewall on a host by hand (run it there as root): the alternative to the helper container the daemon starts on a remote engine's host (docs/scale-out.md)",
    )
    .option('--print', 'print the script (required: the daemon installs the firewall itself; this is for installing it by hand)')
    .option('--routes <file>', "the host's routes as `ip -json -4 route show table all` prints them, or - for stdin (default: this host's)")
    .option('--resolv-conf <file>', "the host's resolv.conf, whose nameservers stay reachable on port 53 (default: /etc/resolv.conf)")
    .option('--bridge <name>', 'the sandbox bridge interface on that host (default errand0)')
    .addHelpText(
      'after',
      examples(
        'errand sandbox firewall --print > firewall.sh   # for this host',
        "ssh gpu-2 ip -json -4 route show table all > gpu-2-routes.json && ssh gpu-2 cat /etc/resolv.conf > gpu-2-resolv.conf",
        'errand sandbox firewall --print --routes gpu-2-routes.json --resolv-conf gpu-2-resolv.conf | ssh gpu-2 sudo sh',
      ),
    )
    .action(async (flags: { print?: boolean; routes?: string; resolvConf?: string; bridge?: string }, cmd: Command) => {
      await printSandboxFirewall(contextOf(cmd), { ...flags, print: flags.print === true });
    });
}

/** Prints the script for the host whose routes and resolv.conf are given (this host's by default). */
export async function printSandboxFirewall(ctx: CliContext, options: SandboxFirewallOptions): Promise<string> {
  if (!options.print) {
    throw new UsageError('errand sandbox firewall only prints the script that installs the firewall by hand: add --print (the daemon installs it on its hosts itself)', 'usage_error', '--print');
  }
  const [{ connectedNetworks, readHostRoutes }, { hostNameservers, parseNameservers }, { sandboxFirewallScript }, { SANDBOX_BRIDGE }] = await Promise.all([
    import('../../../src/network/host-routes.js'),
    import('../../../src/sandbox/docker/sandbox-firewall.js'),
    import('../../../src/sandbox/docker/firewall-script.js'),
    import('../../../src/sandbox/docker/sandbox-network.js'),
  ]);
  const routes =
    options.routes === undefined
      ? await readHostRoutes(4).catch((error: unknown) => {
          throw new UserError(`reading this host's routes needs \`ip\` (iproute2), or give the host's with --routes: ${(error as Error).message.split('\n')[0]}`, 'routes_unreadable');
        })
      : parseRoutes(readText(options.routes, '--routes'));
  const nameservers = options.resolvConf === undefined ? hostNameservers() : parseNameservers(readText(options.resolvConf, '--resolv-conf'));
  const firewall = { bridge: options.bridge ?? SANDBOX_BRIDGE, connectedNetworks: connectedNetworks(routes, 4), nameservers };
  const script = sandboxFirewallScript(firewall);
  ctx.out.result({ bridge: firewall.bridge, connected_networks: firewall.connectedNetworks, nameservers, script }, () => ctx.out.stdout.write(script));
  return script;
}

function parseRoutes(text: string): HostRoute[] {
  try {
    const parsed: unknown = JSON.parse(text === '' ? '[]' : text);
    if (Array.isArray(parsed)) return parsed as HostRoute[];
  } catch {
    // Not JSON: the same answer as JSON that is not an array.
  }
  throw new UsageError('--routes must hold what `ip -json -4 route show table all` prints (a JSON array)', 'usage_error', '--routes');
}
