import type { MailDetail } from './dashboard-data.js';
import type { DetailLine } from './detail-view.js';
import type { Email, ReceivedEmail } from './source.js';

/** Everything the detail view shows of a message, as lines: its envelope, then a received one's text, a sent one's recipients. Pure. */
export function mailDetailLines(detail: MailDetail, cliName: string): DetailLine[] {
  const record = detail.record;
  if (record === null) return [{ text: `${detail.ref.id}: loading…` }];
  return record.direction === 'in' ? receivedLines(record.email) : sentLines(record.email, cliName);
}

function receivedLines(e: ReceivedEmail): DetailLine[] {
  const lines: DetailLine[] = [
    { text: `${e.message_id}  received ${e.kind}  from ${e.from_name === null ? e.from : `${e.from_name} <${e.from}>`}`, bold: true },
    { text: `to: ${e.to.join(', ')}`, wraps: true },
    { text: `subject: ${e.subject}`, wraps: true },
    { text: [`received ${e.received_at.slice(0, 19).replace('T', ' ')}`, e.in_reply_to && `in reply to ${e.in_reply_to}`, e.inbox_id && `inbox ${e.inbox_id}`, e.run_id && `run ${e.run_id}`].filter(Boolean).join(' · ') },
  ];
  if (e.auth !== undefined) lines.push({ text: `auth: spf ${e.auth.spf} · dkim ${e.auth.dkim} · dmarc ${e.auth.dmarc}` });
  if (e.metadata !== null) lines.push({ text: `metadata: ${JSON.stringify(e.metadata)}`, wraps: true });
  for (const a of e.attachments ?? []) lines.push({ text: `attachment: ${a.filename ?? a.id} (${a.content_type}, ${a.size} bytes)` });
  lines.push({ text: '' });
  for (const line of e.text.replace(/\r\n/g, '\n').trimEnd().split('\n')) lines.push({ text: line, wraps: true });
  if (e.truncated) lines.push({ text: '(cut at 256 KiB)', color: 'gray' });
  return lines;
}

function sentLines(e: Email, cliName: string): DetailLine[] {
  const lines: DetailLine[] = [
    { text: `${e.id}  ${e.status}  from ${e.from_name} <${e.from_address}>`, bold: true },
    { text: `subject: ${e.subject}`, wraps: true },
    { text: [`sent ${e.created_at.slice(0, 19).replace('T', ' ')}`, e.send_at && `to go at ${e.send_at}`, e.inbox_id && `inbox ${e.inbox_id}`].filter(Boolean).join(' · ') },
    { text: `replies to: ${e.reply_to?.address ?? '-'} (${e.reply_to?.reason ?? 'none'})` },
  ];
  if (e.metadata !== null) lines.push({ text: `metadata: ${JSON.stringify(e.metadata)}`, wraps: true });
  lines.push({ text: `recipients (${e.recipients.length})`, bold: true });
  for (const r of e.recipients) {
    const color = r.status === 'delivered' ? 'green' : r.status === 'queued' || r.status === 'deferred' ? 'yellow' : 'red';
    lines.push({ text: `  ${r.address} (${r.kind}) ${r.status}${r.detail === null ? '' : `: ${r.detail}`}`, color, wraps: true });
  }
  lines.push({ text: `the message itself: ${cliName} email show ${e.id} --raw`, color: 'gray' });
  return lines;
}
