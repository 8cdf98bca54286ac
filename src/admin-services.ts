import { mkdirSync } from 'node:fs';
import { pino } from 'pino';
import { systemClock, type Clock } from './clock.js';
import { loadConfig } from './config/load.js';
import { EventLog } from './event-log/event-log.js';
import { EventBus } from './events.js';
import { createIdFactory, type IdFactory } from './ids.js';
import { KeysService } from './keys/keys-service.js';
import { McpGrantsService } from './mcp-server/oauth-server/grants-service.js';
import { Approvals } from './mail/outbound/approvals.js';
import { OrgModes } from './orgs/org-modes.js';
import { OrgsService } from './orgs/orgs-service.js';
import { RetentionService } from './retention/retention-service.js';
import { dataPaths } from './runtime/paths.js';
import { rotateMasterKey, type RotationReport } from './secrets/key-rotation.js';
import { loadMasterKeyring, type MasterKeyring } from './secrets/master-key.js';
import { SecretBox } from './secrets/secret-box.js';
import { openStore, type Store } from './store/store.js';
import { DeliveriesService } from './webhooks/deliveries-service.js';
import { EventWebhooks } from './webhooks/event-webhooks.js';
import { WebhookOutbox } from './webhooks/outbox.js';
import { TestWebhooks } from './webhooks/test-webhooks.js';
import type { SignerSecrets } from './webhooks/webhook-signers.js';
import { OrgWebhookEndpoints } from './webhooks/org-endpoints.js';
import { SigningSecrets } from './webhooks/signing-secrets.js';

/**
 * What an installation's administrator works with, on the data directory itself and never over HTTP (keys are not
 * minted through the API): organisations, API keys, webhook signing secrets, deliveries and endpoints, sample
 * webhooks, events' webhooks with the secrets that sign them (`errand listen`), and the approval of organisations'
 * email sends. The daemon builds the same services from its resources; the CLI's admin
 * commands get them from `withDataDirectory`.
 */
export interface AdminServices {
  orgs: OrgsService;
  /** Whether an organisation is live or a test-mode twin: every `livemode`, and which runner a run goes to. */
  orgModes: OrgModes;
  keys: KeysService;
  signingSecrets: SigningSecrets;
  /** The secrets of email webhooks (the identities'). */
  identitySecrets: SigningSecrets;
  deliveries: DeliveriesService;
  eventWebhooks: EventWebhooks;
  testWebhooks: TestWebhooks;
  mcpGrants: McpGrantsService;
  webhookEndpoints: OrgWebhookEndpoints;
  emailApprovals: Approvals;
}

export interface AdminServicesDeps {
  store: Store;
  clock: Clock;
  ids: IdFactory;
  events: EventBus;
  /** Read when a secret is first sealed or opened: commands that touch no secret never create the key file. */
  masterKey: () => Buffer | MasterKeyring;
}

export function createAdminServices(deps: AdminServicesDeps): AdminServices {
  const box = new SecretBox(deps.masterKey);
  const signingSecrets = new SigningSecrets({ store: deps.store, box, clock: deps.clock, signer: 'org' });
  const identitySecrets = new SigningSecrets({ store: deps.store, box, clock: deps.clock, signer: 'email' });
  const secrets: SignerSecrets = { org: (orgId) => signingSecrets.signingSecrets(orgId), email: (orgId) => identitySecrets.signingSecrets(orgId) };
  const log = new EventLog({ store: deps.store.events, clock: deps.clock, events: deps.events });
  const deliveries = new DeliveriesService({ store: deps.store.webhooks, clock: deps.clock, events: deps.events });
  // A sample is asked for now, so its first attempt is due at once; the worker takes any retries from the daemon's
  // own webhooks.retry_schedule_s.
  const outbox = new WebhookOutbox({ store: deps.store.webhooks, clock: deps.clock, ids: deps.ids, events: deps.events, retryScheduleS: [0] });
  return {
    orgs: new OrgsService(deps),
    orgModes: new OrgModes(deps.store.orgs),
    keys: new KeysService(deps),
    signingSecrets,
    identitySecrets,
    deliveries,
    eventWebhooks: new EventWebhooks({ log, secrets }),
    testWebhooks: new TestWebhooks({ store: deps.store, clock: deps.clock, ids: deps.ids, outbox, deliveries, secrets }),
    mcpGrants: new McpGrantsService(deps),
    webhookEndpoints: new OrgWebhookEndpoints({ store: deps.store, clock: deps.clock }),
    emailApprovals: new Approvals({ store: deps.store, clock: deps.clock, events: deps.events }),
  };
}

/**
 * Opens the data directory's store for one command, hands `fn` the admin services on it, and closes it after.
 * Safe beside a running daemon: SQLite in WAL mode with a busy timeout. A redelivery marked here is picked up by
 * the daemon's delivery worker on its next look at the outbox.
 */
export async function withDataDirectory<T>(home: string, env: NodeJS.ProcessEnv, fn: (services: AdminServices) => T | Promise<T>): Promise<T> {
  // Created as the daemon would create it: it holds keys' hashes, the master key and credentials.
  mkdirSync(home, { recursive: true, mode: 0o700 });
  const store = openStore(dataPaths(home).database);
  try {
    return await fn(createAdminServices({ store, clock: systemClock, ids: createIdFactory(), events: new EventBus(), masterKey: () => loadMasterKeyring({ home, env }) }));
  } finally {
    store.close();
  }
}

/**
 * `errand gc`: the retention service on the data directory's store, with the installation's retention windows, for
 * one command; beside a running daemon too (its purge goes in the same short batches as the daemon's).
 */
export async function withRetention<T>(home: string, env: NodeJS.ProcessEnv, fn: (retention: RetentionService) => T | Promise<T>): Promise<T> {
  const config = loadConfig({ home, env });
  mkdirSync(home, { recursive: true, mode: 0o700 });
  const store = openStore(dataPaths(home).database);
  try {
    return await fn(new RetentionService({ store, clock: systemClock, logger: pino({ level: 'silent' }), config, home }));
  } finally {
    store.close();
  }
}

/**
 * `errand secrets rotate-key`: a new master key (or, with ERRAND_MASTER_KEY, the one the operator set) and every
 * sealed value of the data directory re-encrypted under it. A running daemon picks the new key up by itself.
 */
export function rotateMasterKeyIn(home: string, env: NodeJS.ProcessEnv): RotationReport {
  mkdirSync(home, { recursive: true, mode: 0o700 });
  const store = openStore(dataPaths(home).database);
  try {
    return rotateMasterKey({ home, env, store });
  } finally {
    store.close();
  }
}
