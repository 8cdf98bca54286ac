import { Option, type Command } from 'commander';
import { withDataDirectory } from '../../../src/admin-services.js';
import { EVENT_TYPES, WEBHOOK_EVENT_TYPES, WEBHOOK_SIGNERS, eventSpec, isEventType } from '../../../src/event-log/event-catalogue.js';
import type { WebhookSigner } from '../../../src/vocabulary/webhook-signers.js';
import type { EventWebhooks } from '../../../src/webhooks/event-webhooks.js';
import { signWebhook } from '../../../src/webhooks/signer.js';
import { UsageError } from '../../cli-errors.js';
import { contextOf, type CliContext } from '../../context.js';
import type { ErrandEvent } from '../../api.js';
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
  /** Whether production sends this event as a webhook: then the body and webhook-id are the delivery's. */
  production_webhook: boolean;
  /** Whose secret signed it: the organisation's (`org`) or the email identity's (`email`). */
  signed_with: WebhookSigner;
  status_code: number | null;
  latency_ms: number;
  error: string | null;
}

/** What is POSTed for one event. */
interface Forwarding {
  webhookId: string;
  body: string;
  signer: WebhookSigner;
  secrets: readonly string[];
  production: boolean;
}

const FORWARD_TIMEOUT_MS = 15_000;

export function registerListen(program: Command): void {
  program
    .command('listen')
    .description("forward the organisation's events to a local server as the webhooks production sends, like the Stripe CLI: no public endpoint needed")
    .requiredOption('--forward-to <url>', 'where to POST each event (e.g. http://localhost:3000/webhooks)')
    .option('--events <types>', `comma-separated event types to forward, or '*' for every type (default: the webhook events, ${WEBHOOK_EVENT_TYPES.join(', ')})`)
    .addOption(new Option('--limit <n>', 'stop after forwarding this many events').argParser((v) => positiveInteger(v)))
    .addHelpText(
      'after',
      `
Each webhook event is POSTed as production sends it: the same body, byte for byte (an email's text and html
included, which the event stream leaves out), the same webhook-id as its delivery, and the Standard Webhooks
headers signed with the secret production signs it with: the organisation's ('errand webhooks secret') for run and
connection events, the identity's webhook_secret for email.* events. webhook-timestamp is the time of forwarding,
as it is each attempt's in production. It does so whether or not the event has an address to go to. Events that
production never sends as webhooks (run.status, run.step, ... with --events) are POSTed as {"event", "data"} with
webhook-id evt_log_<event id>, signed with the organisation's secret. The secrets and bodies are read from the data
directory: run listen on the daemon's machine. It says which secret signs what when it starts, and again when a
rotation changes it. With --json, one line per forwarded event. Ctrl-C stops it.
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
  const orgId = await organisationOfKey(ctx, 'listen forwards the webhooks and signing secrets');
  const abort = new AbortController();
  const stop = () => abort.abort();
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  const wanted = options.events === null ? null : new Set(options.events);
  try {
    // Open for the whole session: each event's webhook and secrets are read as it is forwarded, so a rotation is followed.
    await withDataDirectory(ctx.home, ctx.env, async ({ eventWebhooks }) => {
      const secrets = new SecretNotes(ctx, orgId, eventWebhooks);
      let forwarded = 0;
      const events = api.events.stream({
        signal: abort.signal,
        maxReconnects: Number.POSITIVE_INFINITY,
        onConnection: (state) => {
          if (state === 'reconnecting') return ctx.out.note('connection to the daemon lost; reconnecting (no event is missed)');
          ctx.out.note(`ready: forwarding ${wanted === null ? 'every event' : [...wanted].join(', ')} to ${options.forwardTo} (Ctrl-C stops)`);
          secrets.describe(wanted === null ? EVENT_TYPES : [...wanted]);
        },
      });
      for await (const event of events) {
        if (wanted !== null && !wanted.has(event.type)) continue;
        const forwarding = forwardingOf(event, orgId, eventWebhooks);
        secrets.follow(forwarding.signer, forwarding.secrets);
        const result = await forward(event, forwarding, options.forwardTo, abort.signal);
        if (ctx.json) ctx.out.stdout.write(`${JSON.stringify(result)}\n`);
        else ctx.out.line(`${event.created_at}  ${event.type.padEnd(16)} ${(event.run_id ?? '').padEnd(30)} -> ${result.status_code ?? result.error} (${result.latency_ms} ms)`);
        forwarded += 1;
        if (options.limit !== null && forwarded >= options.limit) return;
      }
    });
  } catch (err) {
    if (!abort.signal.aborted) throw err;
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
}

/** The event's webhook as production sends it; for an event production does not send, its stream copy. */
function forwardingOf(event: ErrandEvent, orgId: string, webhooks: EventWebhooks): Forwarding {
  const webhook = webhooks.of(orgId, event.id);
  if (webhook !== null) return { webhookId: webhook.id, body: webhook.payload, signer: webhook.signer, secrets: webhook.secrets, production: true };
  return { webhookId: `evt_log_${event.id}`, body: JSON.stringify({ event: event.type, data: event.data }), signer: 'org', secrets: webhooks.secrets(orgId, 'org'), production: false };
}

async function forward(event: ErrandEvent, forwarding: Forwarding, url: string, signal: AbortSignal): Promise<ForwardedEvent> {
  const started = performance.now();
  const base = { id: event.id, webhook_id: forwarding.webhookId, type: event.type, run_id: event.run_id, production_webhook: forwarding.production, signed_with: forwarding.signer };
  const failed = (error: string): ForwardedEvent => ({ ...base, status_code: null, latency_ms: Math.round(performance.now() - started), error });
  if (forwarding.secrets.length === 0) return failed(`not forwarded: no secret signs ${forwarding.signer} webhooks yet (${signerName(forwarding.signer)})`);
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'errand-listen', ...signWebhook(forwarding.webhookId, Date.now(), forwarding.body, forwarding.secrets) },
      body: forwarding.body,
      redirect: 'manual',
      signal: AbortSignal.any([signal, AbortSignal.timeout(FORWARD_TIMEOUT_MS)]),
    });
    await res.arrayBuffer();
    return { ...base, status_code: res.status, latency_ms: Math.round(performance.now() - started), error: res.ok ? null : `HTTP ${res.status}` };
  } catch (err) {
    if (signal.aborted) throw err;
    const cause = (err as { cause?: { code?: string } }).cause?.code;
    return failed(`could not deliver: ${cause ?? (err as Error).message}`);
  }
}

/**
 * Says which secret signs which events, as `stripe listen` does: once when listening starts, for the types it
 * forwards, and again whenever the secret a signer signs with changes (a rotation while listening).
 */
class SecretNotes {
  /** The newest secret told of, and the types it signs, by signer. */
  private readonly told = new Map<WebhookSigner, { secret: string; types: string }>();

  constructor(
    private readonly ctx: CliContext,
    private readonly orgId: string,
    private readonly webhooks: EventWebhooks,
  ) {}

  /** The secret of each signer of `types`; the types production does not send as webhooks are signed with the organisation's. */
  describe(types: readonly string[]): void {
    const bySigner = new Map<WebhookSigner, string[]>();
    const unsent: string[] = [];
    for (const type of types) {
      const signer = isEventType(type) ? eventSpec(type).webhook?.signer : undefined;
      if (signer === undefined) unsent.push(type);
      else bySigner.set(signer, [...(bySigner.get(signer) ?? []), type]);
    }
    for (const [signer, signed] of bySigner) this.tell(signer, this.webhooks.secrets(this.orgId, signer), signed.join(', '), '');
    if (unsent.length > 0) {
      const secret = this.webhooks.secrets(this.orgId, 'org')[0];
      this.ctx.out.note(`${unsent.join(', ')}: no webhook in production; forwarded as {"event", "data"} with webhook-id evt_log_<id>, signed with ${secret === undefined ? 'nothing' : hintOf(secret)}, ${signerName('org')}`);
    }
  }

  /** Tells again of a signer whose newest secret is not the one told of (a rotation while listening). */
  follow(signer: WebhookSigner, secrets: readonly string[]): void {
    const told = this.told.get(signer);
    if (told !== undefined && secrets[0] !== undefined && secrets[0] !== told.secret) this.tell(signer, secrets, told.types, 'now ');
  }

  private tell(signer: WebhookSigner, secrets: readonly string[], types: string, now: string): void {
    const [newest, previous] = secrets;
    this.told.set(signer, { secret: newest ?? '', types });
    if (newest === undefined) {
      this.ctx.out.note(`${types}: not forwarded until something signs them: ${signerName(signer)} does not exist yet`);
      return;
    }
    const also = previous === undefined ? '' : `; the previous one, ${hintOf(previous)}, signs beside it until its rotation window ends`;
    this.ctx.out.note(`${types}: ${now}signed with ${hintOf(newest)}, ${signerName(signer)}${also}`);
  }
}

/** The signer as the catalogue describes it, for a terminal. */
function signerName(signer: WebhookSigner): string {
  return WEBHOOK_SIGNERS[signer].replaceAll('`', '');
}

/** A secret as listen names it: enough to tell which one, never the secret itself (`errand webhooks secret` shows it). */
function hintOf(secret: string): string {
  return `whsec_…${secret.slice(-4)}`;
}
