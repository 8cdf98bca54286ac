import { Option, type Command } from 'commander';
import { withDataDirectory } from '../../../src/admin-services.js';
import { signWebhook } from '../../../src/webhooks/signer.js';
import { WEBHOOK_EVENT_TYPES } from '../../../src/event-log/event-catalogue.js';
import { UsageError } from '../../cli-errors.js';
import { contextOf, type CliContext } from '../../context.js';
import { followEvents, type StreamEvent } from '../../event-stream.js';
import { examples } from '../../help.js';
import { organisationOfKey } from '../../key-organisation.js';

export interface ListenOptions {
  forwardTo: string;
  /** Event types to forward; null for every type. */
  events: readonly string[] | null;
  /** Stop after forwarding this many events (for scripts and tests); null to run until Ctrl-C. */
  limit: number | null;
}

/** One forwarded event, as `--json` prints it (one line each). */
export interface ForwardedEvent {
  id: number;
  webhook_id: string;
  type: string;
  run_id: string | null;
  status_code: number | null;
  latency_ms: number;
  error: string | null;
}

const FORWARD_TIMEOUT_MS = 15_000;

export function registerListen(program: Command): void {
  program
    .command('listen')
    .description("forward the organisation's events to a local server as signed webhooks, like the Stripe CLI: no public endpoint needed")
    .requiredOption('--forward-to <url>', 'where to POST each event (e.g. http://localhost:3000/webhooks)')
    .option('--events <types>', `comma-separated event types to forward, or '*' for every type (default: the webhook events, ${WEBHOOK_EVENT_TYPES.join(', ')})`)
    .addOption(new Option('--limit <n>', 'stop after forwarding this many events').argParser((v) => positiveInteger(v)))
    .addHelpText(
      'after',
      `
Each event is POSTed as a webhook would be: the body {"event": <type>, "data": <data>} and the Standard Webhooks
headers (webhook-id, webhook-timestamp, webhook-signature), signed with the organisation's signing secret
('errand webhooks secret' shows it), read from the data directory: run listen on the daemon's machine. With --json,
one line per forwarded event. Ctrl-C stops it.
${examples('errand listen --forward-to http://localhost:3000/webhooks', "errand listen --forward-to http://localhost:3000/hooks --events run.completed,run.failed --json", "errand listen --forward-to http://127.0.0.1:8080/ --events '*'")}`,
    )
    .action(async (flags: { forwardTo: string; events?: string; limit?: number }, cmd: Command) => {
      await listen(contextOf(cmd), { forwardTo: targetOf(flags.forwardTo), events: eventsOf(flags.events), limit: flags.limit ?? null });
    });
}

function positiveInteger(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`--limit takes a whole number from 1, got '${value}'`, 'usage_error', '--limit');
  return n;
}

function targetOf(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`--forward-to must be an http:// or https:// URL, got '${value}'`, 'usage_error', '--forward-to');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`--forward-to must be an http:// or https:// URL, got '${value}'`, 'usage_error', '--forward-to');
  return url.toString();
}

function eventsOf(value: string | undefined): readonly string[] | null {
  if (value === undefined) return WEBHOOK_EVENT_TYPES;
  if (value.trim() === '*') return null;
  const types = value.split(',').map((t) => t.trim()).filter((t) => t !== '');
  if (types.length === 0) throw new UsageError("--events takes comma-separated event types, or '*'", 'usage_error', '--events');
  return types;
}

export async function listen(ctx: CliContext, options: ListenOptions): Promise<void> {
  const api = ctx.api();
  const orgId = await organisationOfKey(ctx, "listen signs with the organisation's webhook secret,");
  const abort = new AbortController();
  const stop = () => abort.abort();
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  const wanted = options.events === null ? null : new Set(options.events);
  let forwarded = 0;
  try {
    const events = followEvents(api, '/v1/events', {
      signal: abort.signal,
      reconnectForMs: Number.POSITIVE_INFINITY,
      onConnection: (state) => {
        if (state === 'connected') ctx.out.note(`ready: forwarding ${wanted === null ? 'every event' : [...wanted].join(', ')} to ${options.forwardTo} (Ctrl-C stops)`);
        else ctx.out.note('connection to the daemon lost; reconnecting (no event is missed)');
      },
    });
    for await (const event of events) {
      if (wanted !== null && !wanted.has(event.type)) continue;
      const result = await forward(event, options.forwardTo, await signingSecrets(ctx, orgId), abort.signal);
      if (ctx.json) ctx.out.stdout.write(`${JSON.stringify(result)}\n`);
      else ctx.out.line(`${event.created_at}  ${event.type.padEnd(16)} ${(event.run_id ?? '').padEnd(30)} -> ${result.status_code ?? result.error} (${result.latency_ms} ms)`);
      forwarded += 1;
      if (options.limit !== null && forwarded >= options.limit) return;
    }
  } catch (err) {
    if (!abort.signal.aborted) throw err;
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
}

async function forward(event: StreamEvent, url: string, secrets: readonly string[], signal: AbortSignal): Promise<ForwardedEvent> {
  const body = JSON.stringify({ event: event.type, data: event.data });
  const webhookId = `evt_log_${event.id}`;
  const started = performance.now();
  const base = { id: event.id, webhook_id: webhookId, type: event.type, run_id: event.run_id };
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'errand-listen', ...signWebhook(webhookId, Date.now(), body, secrets) },
      body,
      redirect: 'manual',
      signal: AbortSignal.any([signal, AbortSignal.timeout(FORWARD_TIMEOUT_MS)]),
    });
    await res.arrayBuffer();
    return { ...base, status_code: res.status, latency_ms: Math.round(performance.now() - started), error: res.ok ? null : `HTTP ${res.status}` };
  } catch (err) {
    if (signal.aborted) throw err;
    const cause = (err as { cause?: { code?: string } }).cause?.code;
    return { ...base, status_code: null, latency_ms: Math.round(performance.now() - started), error: `could not deliver: ${cause ?? (err as Error).message}` };
  }
}

/** Read for each event, so that a rotation during a long listen is followed: both secrets sign while it lasts. */
function signingSecrets(ctx: CliContext, orgId: string): Promise<string[]> {
  return withDataDirectory(ctx.home, ctx.env, ({ signingSecrets }) => signingSecrets.signingSecrets(orgId));
}
