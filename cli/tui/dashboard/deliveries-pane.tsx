import { Text } from 'ink';
import type { Deliveries, WebhookDelivery } from './source.js';
import { age, fit } from './format.js';
import { Table, type TableColumn } from './table.js';

export interface DeliveriesPaneProps {
  deliveries: Deliveries | null;
  selected: number;
  width: number;
  height: number;
  now: number;
}

const STATUS_COLORS = { pending: 'yellow', succeeded: 'green', failed: 'red' } as const;

/** Webhook deliveries, failures first to the eye: status, attempts, the last answer. */
export function DeliveriesPane({ deliveries, selected, width, height, now }: DeliveriesPaneProps) {
  if (deliveries?.kind === 'unavailable') return <Text dimColor>{fit(`  ${deliveries.reason}`, width)}</Text>;
  const columns: TableColumn<WebhookDelivery>[] = [
    { header: 'STATUS', width: 9, value: (d) => d.status, color: (d) => STATUS_COLORS[d.status] },
    { header: 'AGE', width: 4, align: 'right', value: (d) => age(d.created_at, now) },
    { header: 'EVENT', width: 13, value: (d) => d.event },
    { header: 'TRIES', width: 5, align: 'right', value: (d) => String(d.attempts) },
    { header: 'LAST', width: 14, value: (d) => (d.last_status_code !== null ? String(d.last_status_code) : (d.last_error ?? '-')) },
    { header: 'URL', value: (d) => d.url },
  ];
  return <Table columns={columns} rows={deliveries?.items ?? []} selected={selected} width={width} height={height} empty={deliveries === null ? 'loading deliveries…' : 'no webhook deliveries'} />;
}

export function deliveryMatches(d: WebhookDelivery, filter: string): boolean {
  const needle = filter.toLowerCase();
  return [d.id, d.event, d.status, d.url, d.run_id, d.last_error].some((v) => v !== null && v.toLowerCase().includes(needle));
}
