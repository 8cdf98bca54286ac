import { readFileSync } from 'node:fs';
import { Option, type Command } from 'commander';
import type { EmailSent, EmailSendParams } from '../../api.js';
import { UsageError, UserError } from '../../cli-errors.js';
import type { CliContext } from '../../context.js';
import { collect, readJsonObject } from '../../flag-parsers.js';

export interface SendFlags {
  to?: string[];
  cc?: string[];
  bcc?: string[];
  subject?: string;
  text?: string;
  markdown?: string;
  html?: string;
  fromName?: string;
  replyTo?: string;
  clientId?: string;
  metadata?: string;
  sendAt?: string;
}

/** The flags of a send, shared by `email send` and `inboxes send`. */
export function addSendFlags(cmd: Command): Command {
  return cmd
    .option('--to <address>', 'a recipient (repeatable: one message whose recipients see each other)', collect)
    .option('--cc <address>', 'a copy recipient (repeatable)', collect)
    .option('--bcc <address>', 'a hidden recipient (repeatable); never in a header', collect)
    .option('--subject <text>', 'the subject')
    .option('--text <text|@file>', 'the plain-text body')
    .option('--markdown <text|@file>', 'a Markdown body, rendered to HTML with inlined CSS')
    .option('--html <text|@file>', 'a pre-rendered HTML body (wins over --markdown)')
    .option('--from-name <name>', "display name (default: the inbox's or the organisation's name)")
    .option('--reply-to <address>', 'replies go here instead of threading back (not correlated)')
    .option('--client-id <id>', 'idempotency key: a repeat returns the original send and sends nothing')
    .option('--metadata <json|@file>', 'a JSON object echoed on the reply webhook')
    .addOption(new Option('--send-at <time>', 'send later: an RFC 3339 time (status scheduled)'));
}

export function sendBodyOf(flags: SendFlags): EmailSendParams {
  if (flags.to === undefined || flags.to.length === 0) throw new UsageError('give at least one --to <address>');
  if (flags.subject === undefined) throw new UsageError('give --subject <text>');
  if (flags.text === undefined && flags.markdown === undefined && flags.html === undefined) throw new UsageError('give a body: --text, --markdown or --html');
  return {
    to: flags.to.length === 1 ? flags.to[0]! : flags.to,
    subject: flags.subject,
    ...(flags.cc === undefined ? {} : { cc: flags.cc }),
    ...(flags.bcc === undefined ? {} : { bcc: flags.bcc }),
    ...(flags.text === undefined ? {} : { text: readText(flags.text, '--text') }),
    ...(flags.markdown === undefined ? {} : { body_markdown: readText(flags.markdown, '--markdown') }),
    ...(flags.html === undefined ? {} : { body_html: readText(flags.html, '--html') }),
    ...(flags.fromName === undefined ? {} : { from_name: flags.fromName }),
    ...(flags.replyTo === undefined ? {} : { reply_to: flags.replyTo }),
    ...(flags.clientId === undefined ? {} : { client_id: flags.clientId }),
    ...(flags.metadata === undefined ? {} : { metadata: readJsonObject(flags.metadata, '--metadata') }),
    ...(flags.sendAt === undefined ? {} : { send_at: flags.sendAt }),
  };
}

export function printSendResult(ctx: CliContext, result: EmailSent): void {
  ctx.out.result(result, () => {
    ctx.out.fields([
      ['message id', result.message_id],
      ['status', result.status],
      ['from', result.from_address],
      ['reply to', result.reply_to?.address ?? null],
      ['reply route', result.reply_to === null ? null : `${result.reply_to.reason}: ${result.reply_to.detail}`],
      ['token', result.correlation_token],
    ]);
    if (result.suppressed.length > 0) ctx.out.warn(`not sent to suppressed recipients: ${result.suppressed.join(', ')}`);
  });
}

/** A body given inline, or as `@path/to/file`. */
export function readText(value: string, flag: string): string {
  if (!value.startsWith('@')) return value;
  const path = value.slice(1);
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    throw new UserError(`${flag}: cannot read ${path} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
}
