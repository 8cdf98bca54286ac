import type { Connection } from './source.js';
import { until } from './format.js';
import { Table, type TableColumn } from './table.js';

export interface ConnectionsPaneProps {
  connections: readonly Connection[] | null;
  selected: number;
  width: number;
  height: number;
  now: number;
}

const STATUS_COLORS = { authenticated: 'green', pending: 'yellow', failed: 'red', expired: 'red' } as const;

/** Connections with their authentication status and, for oauth, when the access token expires. */
export function ConnectionsPane({ connections, selected, width, height, now }: ConnectionsPaneProps) {
  const columns: TableColumn<Connection>[] = [
    { header: 'NAME', width: 16, value: (c) => c.name },
    { header: 'TYPE', width: 5, value: (c) => c.type },
    { header: 'STATUS', width: 13, value: (c) => (c.is_enabled ? c.auth_status : 'disabled'), color: (c) => (c.is_enabled ? STATUS_COLORS[c.auth_status] : 'gray') },
    { header: 'EXPIRES', width: 8, value: (c) => (c.expires_at === null ? '-' : Date.parse(c.expires_at) <= now ? 'expired' : until(c.expires_at, now)) },
    { header: 'SCOPE', width: 10, value: (c) => c.project_id ?? 'org' },
    { header: 'DETAIL', value: (c) => c.auth_detail ?? '-' },
  ];
  return <Table columns={columns} rows={connections ?? []} selected={selected} width={width} height={height} empty={connections === null ? 'loading connections…' : 'no connections'} />;
}

export function connectionMatches(c: Connection, filter: string): boolean {
  const needle = filter.toLowerCase();
  return [c.id, c.name, c.type, c.auth_status, c.provider, c.auth_detail].some((v) => v !== null && v.toLowerCase().includes(needle));
}
