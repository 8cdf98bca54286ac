import { age } from './format.js';
import type { MailItem } from './source.js';
import { Table, type TableColumn } from './table.js';

export interface MailPaneProps {
  mail: readonly MailItem[] | null;
  selected: number;
  width: number;
  height: number;
  now: number;
}

/** A message id, whole (`msg_` and 26 digits): `errand email show` takes it. */
const MESSAGE_ID_WIDTH = 30;

const KIND_COLORS: Record<string, string> = { reply: 'green', bounce: 'red', complaint: 'red', rejected: 'red', pending_approval: 'yellow', scheduled: 'yellow' };

/** Mail received and sent, newest first: which way, when, what (a reply, a bounce; sent and delivered), who, about what. */
export function MailPane({ mail, selected, width, height, now }: MailPaneProps) {
  const columns: TableColumn<MailItem>[] = [
    { header: 'DIR', width: 3, value: (m) => m.direction },
    { header: 'AGE', width: 4, drop: 1, align: 'right', value: (m) => age(m.at, now) },
    { header: 'WHAT', width: 13, value: what, color: (m) => KIND_COLORS[m.direction === 'in' ? (m.email.kind ?? 'message') : m.email.status] },
    { header: 'MESSAGE', width: MESSAGE_ID_WIDTH, value: (m) => m.id },
    { header: 'FROM / TO', min: 10, value: (m) => (m.direction === 'in' ? m.email.from : [...m.email.to, ...m.email.cc].join(', ')) },
    { header: 'SUBJECT', min: 10, value: (m) => m.email.subject },
  ];
  return <Table columns={columns} rows={mail ?? []} selected={selected} width={width} height={height} empty={mail === null ? 'loading mail…' : 'no mail received or sent'} />;
}

/** A received message's kind; a sent one's status, with how many of its recipients it reached. */
function what(m: MailItem): string {
  if (m.direction === 'in') return m.email.kind ?? 'message';
  const delivered = m.email.recipients.filter((r) => r.status === 'delivered').length;
  return m.email.status === 'sent' ? `sent ${delivered}/${m.email.recipients.length}` : m.email.status;
}

export function mailMatches(m: MailItem, filter: string): boolean {
  const needle = filter.toLowerCase();
  const who = m.direction === 'in' ? [m.email.from, ...m.email.to] : [m.email.from_address, ...m.email.to, ...m.email.cc];
  return [m.id, m.email.subject, what(m), ...who].some((v) => v.toLowerCase().includes(needle));
}
