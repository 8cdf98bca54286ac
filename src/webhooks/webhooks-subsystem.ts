import type { EventAnnouncer } from '../event-log/event-announcer.js';
import type { TargetGuard } from '../network/target-guard.js';
import type { Metrics } from '../metrics/metrics.js';
import type { Resources } from '../resources.js';
import type { Subsystem } from '../subsystem.js';
import type { RunTracing } from '../tracing/run-tracing.js';
import { DeliveryWorker } from './delivery-worker.js';

/** Whose secrets sign an organisation's webhooks: its own (`SigningSecrets`), or its email identity's. */
interface SecretsOfOrgs {
  signingSecrets(orgId: string): readonly string[];
}

export interface WebhooksSubsystemDeps {
  resources: Resources;
  announcer: EventAnnouncer;
  guard: TargetGuard;
  signingSecrets: SecretsOfOrgs;
  emailSigningSecrets: SecretsOfOrgs;
  metrics: Metrics | null;
  /** Runs' trace context, which their webhooks carry. */
  tracing: RunTracing;
}

/**
 * The delivery of what the outbox holds. The outbox itself is built before the parts that write to it (runs, mail,
 * connections), this worker after the identities whose secrets sign email webhooks.
 */
export function webhooksSubsystem(deps: WebhooksSubsystemDeps): Subsystem {
  const { resources, announcer, guard, signingSecrets, emailSigningSecrets, metrics } = deps;
  const { store, clock, logger, config } = resources;
  const webhookWorker = new DeliveryWorker({
    store,
    signingSecrets: (orgId) => signingSecrets.signingSecrets(orgId),
    emailSigningSecrets: (orgId) => emailSigningSecrets.signingSecrets(orgId),
    clock,
    logger: logger.child({ component: 'webhooks' }),
    events: resources.events,
    announcer,
    config,
    guard,
    traceparentOf: (runId) => {
      const run = store.runs.getById(runId);
      return run === undefined ? null : deps.tracing.traceparentOf(run);
    },
    ...(metrics ? { onAttempt: (status, latencyMs) => metrics.webhookAttempt(status === 'pending' ? 'retrying' : status, latencyMs / 1000) } : {}),
  });
  return {
    name: 'webhooks',
    services: {},
    start: () => webhookWorker.start(),
    close: () => webhookWorker.close(),
  };
}
