import type { Command } from 'commander';
import type { SandboxHostStatus } from '../../api.js';
import { UserError } from '../../cli-errors.js';
import { contextOf, type CliContext } from '../../context.js';
import { examples } from '../../help.js';

export function registerSandboxHosts(sandbox: Command): void {
  sandbox
    .command('hosts')
    .description("list the Docker engines the running daemon runs sandboxes on (sandbox.hosts): capacity, load, warm pool, runtime, labels, state and firewall, as GET /v1/status reports them")
    .addHelpText('after', examples('errand sandbox hosts', "errand sandbox hosts --json | jq '.data[] | select(.state == \"down\") | .name'"))
    .addHelpText(
      'after',
      `
Hosts are added and removed in the daemon's configuration: sandbox.hosts, an object keyed by host name
({url, tls: {ca, cert, key}, ssh: {key, known_hosts}, capacity: {runs, memory_mb}, labels, runtime, firewall}),
in <home>/config.json or as JSON in ERRAND_SANDBOX_HOSTS; the daemon reads it when it starts (errand daemon stop &&
errand daemon start). Why a host is down is printed below the table (for an ssh:// host, a host key its known_hosts
does not list, with the key's fingerprint and what to do).
'errand config show sandbox' shows where it is set. A host whose firewall is missing gets no runs until it is in
place ("auto": the daemon installs it; "manual": you do, with errand sandbox firewall --print) or its firewall is "off". docs/scale-out.md says how to add a host safely: its TLS material or SSH keys, its firewall, its image.`,
    )
    .action(async (_flags: unknown, cmd: Command) => {
      await listSandboxHosts(contextOf(cmd));
    });
}

export async function listSandboxHosts(ctx: CliContext): Promise<SandboxHostStatus[]> {
  const status = await ctx.api().status();
  const hosts = status.sandbox.hosts;
  if (hosts === undefined) {
    throw new UserError(`the daemon at ${ctx.address().url} does not list sandbox hosts (it predates sandbox.hosts): it runs sandboxes on one engine, which '${ctx.cliName} doctor' reports`, 'hosts_unsupported');
  }
  ctx.out.result({ object: 'list', data: hosts }, () => {
    ctx.out.table(
      hosts,
      [
        { header: 'HOST', value: (h) => h.name, max: 30 },
        { header: 'STATE', value: (h) => h.state },
        { header: 'RUNS', value: (h) => `${h.load.runs}/${h.capacity.runs}` },
        { header: 'MEMORY MB', value: (h) => `${h.load.memory_mb}/${h.capacity.memory_mb}` },
        { header: 'POOL', value: (h) => `${h.pool.ready}/${h.pool.size}` },
        { header: 'RUNTIME', value: (h) => h.runtime },
        { header: 'LABELS', value: (h) => h.labels.join(','), max: 30 },
        { header: 'FIREWALL', value: (h) => firewallWord(h.firewall) },
        { header: 'URL', value: (h) => h.url, max: 60 },
      ],
      `no sandbox hosts: the daemon runs sandboxes with the ${status.sandbox.driver} driver`,
    );
    for (const host of hosts) {
      const problem = hostProblem(host);
      // What to do about missing rules; an up host's other details are only news.
      const detail = host.firewall.detail === null || (host.state === 'down' && host.firewall.installed !== false) ? '' : ` (firewall: ${host.firewall.detail})`;
      if (problem !== null) ctx.out.warn(`${host.name}: ${problem}${detail}`);
    }
  });
  return hosts;
}

/** The firewall of a host in a word or two: whether its rules are in place, and whether it may run without them. */
export function firewallWord(firewall: SandboxHostStatus['firewall']): string {
  if (firewall.installed === null) return firewall.required ? 'unchecked' : 'off';
  if (firewall.installed) return firewall.required ? 'in place' : 'in place (off)';
  return firewall.required ? 'MISSING' : 'missing (off)';
}

/** Why a host takes no runs, or runs them without the firewall; null when it is fine. */
export function hostProblem(host: SandboxHostStatus): string | null {
  // A daemon from before `problem` was reported says only that the host is down.
  if (host.state === 'down') return `down, so it gets no runs until a check finds it usable: ${host.problem ?? 'it does not answer'}`;
  if (host.firewall.required && host.firewall.installed === false) {
    return 'its sandbox firewall is missing, so it gets no runs until it is in place (docs/scale-out.md) or its firewall is set "off"';
  }
  if (!host.firewall.required && host.firewall.installed !== true) return 'runs sandboxes without the sandbox firewall (its firewall is "off")';
  return null;
}
