import { withDataDirectory } from '../../../src/admin-services.js';
import type { DeliveriesService } from '../../../src/webhooks/deliveries-service.js';
import type { OrgWebhookEndpoints } from '../../../src/webhooks/org-endpoints.js';
import type { SigningSecrets } from '../../../src/webhooks/signing-secrets.js';
import type { TestWebhooks } from '../../../src/webhooks/test-webhooks.js';
import { pickOrg } from '../../pick-org.js';

export interface WebhookServices {
  orgId: string;
  secrets: SigningSecrets;
  deliveries: DeliveriesService;
  endpoints: OrgWebhookEndpoints;
  tests: TestWebhooks;
}

/** The webhook services on the data directory, for the organisation `--org` names (or the only one). */
export function withWebhookServices<T>(home: string, env: NodeJS.ProcessEnv, org: string | undefined, fn: (services: WebhookServices) => T | Promise<T>): Promise<T> {
  return withDataDirectory(home, env, ({ orgs, signingSecrets, deliveries, webhookEndpoints, testWebhooks }) =>
    fn({ orgId: pickOrg(orgs, org).id, secrets: signingSecrets, deliveries, endpoints: webhookEndpoints, tests: testWebhooks }),
  );
}
