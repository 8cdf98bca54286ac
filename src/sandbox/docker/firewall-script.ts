import { sandboxFirewallRestoreInput, sandboxFirewallRules, PIN_CHAIN, type FirewallOptions } from './sandbox-firewall.js';

/**
 * A POSIX shell script that installs the sandbox firewall of a host by hand, as root on that host: the operator's
 * alternative to the helper container of `host-firewall.ts` (`errand sandbox firewall --print`, docs/scale-out.md).
 * It writes what `installSandboxFirewall` writes, from the same rules: the pin chain unless it exists, both chains in
 * one `iptables-restore` transaction, and each jump first in its chain exactly once; running it again changes nothing.
 */
export function sandboxFirewallScript(options: Required<FirewallOptions>): string {
  const { inputHook, forwardHook, rules } = sandboxFirewallRules(options);
  const hook = (rule: string) => {
    const [, chain, ...spec] = rule.split(' ');
    return `first ${chain} ${spec.join(' ')}`;
  };
  return [
    '#!/bin/sh',
    `# The Errand sandbox firewall for the sandbox bridge ${options.bridge}, made by \`errand sandbox firewall --print\``,
    `# from the host's connected networks (${options.connectedNetworks.join(' ') || 'none'}) and nameservers (${options.nameservers.join(' ') || 'none'}).`,
    '# Run it as root on that host, again whenever its networks change.',
    'set -eu',
    'if ! iptables -w -S DOCKER-USER >/dev/null 2>&1; then',
    "  echo 'no DOCKER-USER chain: Docker does not manage iptables on this host, so sandboxes cannot be fenced off here' >&2",
    '  exit 1',
    'fi',
    `iptables -w -S ${PIN_CHAIN} >/dev/null 2>&1 || iptables -w -N ${PIN_CHAIN}`,
    "iptables-restore -w --noflush <<'RULES'",
    sandboxFirewallRestoreInput(rules).trimEnd(),
    'RULES',
    '# Makes a rule the first of its chain, exactly once.',
    'first() {',
    '  chain=$1; shift',
    '  rule="-A $chain $*"',
    '  if [ "$(iptables -w -S "$chain" | grep -c -x -F -- "$rule")" = 1 ] && [ "$(iptables -w -S "$chain" | grep -- "^-A " | head -n 1)" = "$rule" ]; then return; fi',
    '  while iptables -w -D "$chain" "$@" 2>/dev/null; do :; done',
    '  iptables -w -I "$chain" 1 "$@"',
    '}',
    hook(inputHook),
    hook(forwardHook),
    '',
  ].join('\n');
}
