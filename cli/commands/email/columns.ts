import type { Email, ReceivedEmail } from '../../api.js';
import type { CliContext } from '../../context.js';
import type { Column } from '../../output.js';

export const emailColumns: Column<Email>[] = [
  { header: 'ID', value: (e) => e.id },
  { header: 'STATUS', value: (e) => e.status },
  { header: 'TO', value: (e) => [...e.to, ...e.cc].join(', '), max: 40 },
  { header: 'SUBJECT', value: (e) => e.subject, max: 40 },
  { header: 'DELIVERED', value: (e) => `${e.recipients.filter((r) => r.status === 'delivered').length}/${e.recipients.length}` },
  { header: 'CREATED', value: (e) => e.created_at },
];

export function printEmail(ctx: CliContext, email: Email): void {
  ctx.out.result(email, () => {
    ctx.out.fields([
      ['id', email.id],
      ['status', email.status],
      ['from', `${email.from_name} <${email.from_address}>`],
      ['inbox', email.inbox_id],
      ['subject', email.subject],
      ['reply to', email.reply_to?.address],
      ['reply route', email.reply_to && `${email.reply_to.reason}: ${email.reply_to.detail}`],
      ['send at', email.send_at],
      ['client id', email.client_id],
      ['metadata', email.metadata === null ? null : JSON.stringify(email.metadata)],
      ['created', email.created_at],
    ]);
    ctx.out.line();
    ctx.out.table(email.recipients, [
      { header: 'RECIPIENT', value: (r) => r.address },
      { header: 'KIND', value: (r) => r.kind },
      { header: 'STATUS', value: (r) => r.status },
      { header: 'DETAIL', value: (r) => r.detail, max: 70 },
    ]);
  });
}

export function printReceivedEmail(ctx: CliContext, email: ReceivedEmail): void {
  ctx.out.result(email, () => {
    ctx.out.fields([
      ['id', email.message_id],
      ['kind', email.kind],
      ['from', email.from_name === null ? email.from : `${email.from_name} <${email.from}>`],
      ['to', email.to.join(', ')],
      ['subject', email.subject],
      ['in reply to', email.in_reply_to],
      ['inbox', email.inbox_id],
      ['run', email.run_id],
      ['auth', email.auth && `spf ${email.auth.spf}, dkim ${email.auth.dkim}, dmarc ${email.auth.dmarc}`],
      ['attachments', email.attachments?.map((a) => `${a.filename ?? a.id} (${a.size} bytes)`).join(', ')],
      ['metadata', email.metadata === null ? null : JSON.stringify(email.metadata)],
      ['received', email.received_at],
    ]);
    ctx.out.line();
    ctx.out.line(email.text.trimEnd());
    if (email.truncated) ctx.out.note('(the message was cut at 256 KiB)');
  });
}
