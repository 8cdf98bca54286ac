import { isoTime, type Clock } from '../clock.js';
import type { Store } from '../store/store.js';
import type { TargetGuard } from '../network/target-guard.js';

export interface OrgWebhookEndpoint {
  object: 'webhook_endpoint';
  org_id: string;
  /** Where the organisation's own events go (connection.authenticated, connection.expired); null: nowhere. */
  url: string | null;
  updated_at: string | null;
}

/**
 * Each organisation's webhook endpoint: the target of events that belong to no run. Run webhooks still go to each
 * run's callback_url. Set by the CLI; checked by the same target guard as callbacks, now and on every delivery.
 */
export class OrgWebhookEndpoints {
  constructor(private readonly o: { store: Store; clock: Clock }) {}

  get(orgId: string): OrgWebhookEndpoint {
    const row = this.o.store.webhooks.orgEndpoint(orgId);
    return { object: 'webhook_endpoint', org_id: orgId, url: row?.url ?? null, updated_at: row?.updated_at ?? null };
  }

  async set(orgId: string, url: string, guard: TargetGuard): Promise<OrgWebhookEndpoint> {
    await guard.check(url, 'url');
    this.o.store.webhooks.setOrgEndpoint({ org_id: orgId, url, updated_at: isoTime(this.o.clock.now()) });
    return this.get(orgId);
  }

  clear(orgId: string): OrgWebhookEndpoint {
    this.o.store.webhooks.clearOrgEndpoint(orgId);
    return this.get(orgId);
  }
}
