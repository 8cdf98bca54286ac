import { Webhook } from 'standardwebhooks';

export type SignedHeaders = {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
};

/**
 * Standard Webhooks headers for one attempt. With several secrets (a rotation window) the signatures are
 * space-separated, and a receiver holding either secret verifies.
 */
export function signWebhook(eventId: string, timestampMs: number, body: string, secrets: readonly string[]): SignedHeaders {
  if (secrets.length === 0) throw new Error('no signing secret');
  const at = new Date(Math.floor(timestampMs / 1000) * 1000);
  return {
    'webhook-id': eventId,
    'webhook-timestamp': String(at.getTime() / 1000),
    'webhook-signature': secrets.map((s) => new Webhook(s).sign(eventId, at, body)).join(' '),
  };
}
