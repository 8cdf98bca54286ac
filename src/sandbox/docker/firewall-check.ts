import type { FirewallReport } from '../driver.js';
import { FORWARD_CHAIN, INPUT_CHAIN, listSandboxFirewallRules } from './sandbox-firewall.js';

/**
 * Whether the sandbox firewall is in place as iptables lists it now: both chains hold rules and both are jumped to
 * for the sandbox bridge. Rules can vanish after the daemon installed them (a firewall reload, `iptables -F`), so
 * `errand doctor` asks the daemon to look rather than trusting that it once installed them.
 */
export async function checkSandboxFirewall(
  bridge: string,
  list: () => Promise<string[]> = listSandboxFirewallRules,
  remedy = 'restart the daemon to install them',
): Promise<FirewallReport> {
  let lines: string[];
  try {
    lines = await list();
  } catch (err) {
    return { installed: false, detail: `iptables could not be listed: ${(err as Error).message}` };
  }
  const count = (chain: string) => lines.filter((line) => line.startsWith(`-A ${chain} `)).length;
  const missing = [
    ...(lines.includes(`-A INPUT -i ${bridge} -j ${INPUT_CHAIN}`) ? [] : [`the jump from INPUT to ${INPUT_CHAIN}`]),
    ...(lines.includes(`-A DOCKER-USER -i ${bridge} -j ${FORWARD_CHAIN}`) ? [] : [`the jump from DOCKER-USER to ${FORWARD_CHAIN}`]),
    ...(count(INPUT_CHAIN) > 0 ? [] : [`the rules of ${INPUT_CHAIN}`]),
    ...(count(FORWARD_CHAIN) > 0 ? [] : [`the rules of ${FORWARD_CHAIN}`]),
  ];
  if (missing.length > 0) return { installed: false, detail: `missing ${missing.join(', ')}; ${remedy}` };
  return {
    installed: true,
    detail: `${count(FORWARD_CHAIN)} rules in ${FORWARD_CHAIN} and ${count(INPUT_CHAIN)} in ${INPUT_CHAIN}, jumped to for ${bridge} from DOCKER-USER and INPUT`,
  };
}
