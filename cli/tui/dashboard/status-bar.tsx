import { Text } from 'ink';
import type { Connection } from './dashboard-data.js';
import { fit, money } from './format.js';
import type { Status } from './source.js';

const CONNECTION = { connecting: ['connecting', 'yellow'], connected: ['daemon ok', 'green'], reconnecting: ['daemon unreachable, reconnecting', 'red'] } as const;

/**
 * The last line: the daemon's health (the live stream, the model provider), spend today against the cap, the
 * sandbox pool (each host's, when sandboxes run on several: issue 26).
 */
export function StatusBar({ connection, status, width }: { connection: Connection; status: Status | null; width: number }) {
  const [label, color] = CONNECTION[connection];
  const parts: string[] = [];
  if (status !== null) {
    // A model provider that cannot be used comes first: every run fails until it is fixed, and 80 columns cut the end.
    const model = modelProblem(status.model_provider);
    if (model !== null) parts.push(model);
    parts.push(`spend today ${money(status.spend.today_usd)} / ${money(status.spend.daily_cap_usd)}`);
    parts.push(sandboxPart(status.sandbox));
    parts.push(`${status.runs.active} active`);
  }
  const rest = parts.length === 0 ? '' : ` · ${parts.join(' · ')}`;
  const over = status !== null && status.spend.today_usd >= status.spend.daily_cap_usd;
  return (
    <Text wrap="truncate">
      <Text color={color}>● {label}</Text>
      <Text color={over ? 'red' : undefined} dimColor={!over}>
        {fit(rest, Math.max(0, width - label.length - 2))}
      </Text>
    </Text>
  );
}

/** The sandbox driver and its warm pool; with several hosts, each host's pool, and which host takes no runs and why. */
function sandboxPart(sandbox: Status['sandbox']): string {
  const hosts = sandbox.hosts ?? [];
  if (hosts.length > 1) {
    const each = hosts.map((host) => {
      const unused = host.state === 'down' ? ' down' : host.firewall.required && host.firewall.installed === false ? ' no firewall' : '';
      return `${host.name} ${host.pool.ready}/${host.pool.size}${unused}`;
    });
    return `sandbox ${sandbox.driver} pools ${each.join(', ')}`;
  }
  const pool = sandbox.warm_pool;
  return `sandbox ${sandbox.driver}${pool === null ? '' : ` pool ${pool.ready}/${pool.size}`}`;
}

/** What is wrong with the daemon's model provider, in a few words; null when nothing is known to be. */
function modelProblem(p: Status['model_provider']): string | null {
  if (!p.configured) return `no ${p.name} provider configured`;
  if (p.reachable === false) return `${p.name} API unreachable`;
  if (p.key_accepted === false) return `${p.name} key refused`;
  return null;
}
