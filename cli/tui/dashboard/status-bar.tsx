import { Text } from 'ink';
import type { Connection } from './dashboard-data.js';
import { fit, money } from './format.js';
import type { DaemonStatus } from './source.js';

const CONNECTION = { connecting: ['connecting', 'yellow'], connected: ['daemon ok', 'green'], reconnecting: ['daemon unreachable, reconnecting', 'red'] } as const;

/**
 * The last line: the daemon's health (the live stream, the model provider), spend today against the cap, the
 * sandbox pool.
 */
export function StatusBar({ connection, status, width }: { connection: Connection; status: DaemonStatus | null; width: number }) {
  const [label, color] = CONNECTION[connection];
  const parts: string[] = [];
  if (status !== null) {
    // A model provider that cannot be used comes first: every run fails until it is fixed, and 80 columns cut the end.
    const model = modelProblem(status.model_provider);
    if (model !== null) parts.push(model);
    parts.push(`spend today ${money(status.spend.today_usd)} / ${money(status.spend.daily_cap_usd)}`);
    const pool = status.sandbox.warm_pool;
    parts.push(`sandbox ${status.sandbox.driver}${pool === null ? '' : ` pool ${pool.ready}/${pool.size}`}`);
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

/** What is wrong with the daemon's model provider, in a few words; null when nothing is known to be. */
function modelProblem(p: DaemonStatus['model_provider']): string | null {
  if (!p.configured) return `no ${p.name} provider configured`;
  if (p.reachable === false) return `${p.name} API unreachable`;
  if (p.key_accepted === false) return `${p.name} key refused`;
  return null;
}
