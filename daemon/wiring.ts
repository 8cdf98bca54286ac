import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { OrgModes } from '../src/orgs/org-modes.js';
import { createAdminServices, type AdminServices } from '../src/admin-services.js';
import { ArtifactsService } from '../src/artifacts/artifacts-service.js';
import { LinkSigner } from '../src/artifacts/link-signer.js';
import { SpendCaps } from '../src/billing/caps.js';
import { PriceTable } from '../src/billing/prices.js';
import { systemClock, type Clock } from '../src/clock.js';
import type { Config } from '../src/config/schema.js';
import { connectionsSubsystem } from '../src/connections/connections-subsystem.js';
import { engineSubsystem } from '../src/engine/engine-subsystem.js';
import { EventAnnouncer } from '../src/event-log/event-announcer.js';
import { FilesService } from '../src/files/files-service.js';
import { EventLog } from '../src/event-log/event-log.js';
import { eventStreamsSubsystem } from '../src/event-log/event-streams-subsystem.js';
import { EventBus } from '../src/events.js';
import { createIdFactory } from '../src/ids.js';
import { emailNotifier } from '../src/human/human-notifier.js';
import { JobsService } from '../src/jobs/jobs-service.js';
import { sandboxLabelCheck } from '../src/sandbox/sandbox-label.js';
import { LiveLinks } from '../src/live/live-links.js';
import { LiveRuns } from '../src/live/live-runs.js';
import { LiveService } from '../src/live/live-service.js';
import { RateLimiter } from '../src/keys/rate-limiter.js';
import { mailSubsystems } from '../src/mail/mail-subsystems.js';
import { readMailSettings } from '../src/mail/mail-settings.js';
import type { MailStatus } from '../src/mail/mail-status.js';
import { mcpSubsystem } from '../src/mcp-server/mcp-subsystem.js';
import { Metrics } from '../src/metrics/metrics.js';
import { metricsSubsystem } from '../src/metrics/metrics-subsystem.js';
import { ProjectsService } from '../src/projects/projects-service.js';
import type { Resources } from '../src/resources.js';
import { retentionSubsystem } from '../src/retention/retention-subsystem.js';
import { RUN_FILE_LINK_PURPOSE, RunFilesService } from '../src/run-files/run-files-service.js';
import type { RunsService } from '../src/runs/runs-service.js';
import { userSchemasSubsystem } from '../src/runs/user-schemas-subsystem.js';
import { PublicAddress } from '../src/runtime/public-address.js';
import { sandboxesSubsystem } from '../src/sandbox/sandboxes-subsystem.js';
import { schedulesSubsystem } from '../src/schedules/schedules-subsystem.js';
import { loadMasterKeyring } from '../src/secrets/master-key.js';
import { SecretBox } from '../src/secrets/secret-box.js';
import { networkSubsystem } from '../src/network/network-subsystem.js';
import { storageSubsystem } from '../src/store/storage-subsystem.js';
import { SubsystemList } from '../src/subsystem.js';
import { WebhookOutbox } from '../src/webhooks/outbox.js';
import { webhooksSubsystem } from '../src/webhooks/webhooks-subsystem.js';
import { httpSubsystem } from './http-subsystem.js';

export interface DaemonOptions {
  home: string;
  config: Config;
  logger: Logger;
  /** The access lines' logger; by default `logger`. */
  accessLogger?: Logger;
  clock?: Clock;
  /** Where model API keys come from (ANTHROPIC_API_KEY, OPENAI_API_KEY); default process.env. */
  env?: NodeJS.ProcessEnv;
}

export interface Daemon {
  resources: Resources;
  admin: AdminServices;
  runs: RunsService;
  app: FastifyInstance;
  /** Why runs cannot call a model (the missing setting), or null when they can. */
  modelProviderProblem: string | null;
  /** Listens and starts background work; resolves to the address. */
  start(): Promise<string>;
  /** How the daemon does email: where its SMTP server listens once started (null when it receives no mail). */
  mailStatus(): MailStatus;
  /** Stops taking requests, drains in-flight ones, stops background work, closes the store. Idempotent. */
  close(): Promise<void>;
}

/**
 * Builds every part of the daemon once, explicitly (no module-level state; docs/architecture.md, Why these choices):
 * first what several parts share, then each subsystem from its factory, in the order their services are needed;
 * then the list of them, in the order they start.
 */
export async function createDaemon(options: DaemonOptions): Promise<Daemon> {
  const { config, logger } = options;
  const clock = options.clock ?? systemClock;
  const storage = storageSubsystem({ home: options.home, logger });
  const { store } = storage.services;
  const resources: Resources = {
    store,
    clock,
    logger,
    events: new EventBus(),
    config,
    ids: createIdFactory(() => clock.now()),
    home: options.home,
  };

  // Shared by several subsystems.
  const address = new PublicAddress(config.public_url, config['server.host'], config['server.port']);
  const publicUrl = () => address.get();
  const network = await networkSubsystem(config, logger);
  const { guard, dns } = network.services;
  const checkCallbackUrl = (url: string, param: string): Promise<void> => guard.check(url, param);
  // Read again when `errand secrets rotate-key` replaces the key file while the daemon runs.
  const keyring = loadMasterKeyring({ home: options.home, env: options.env });
  const masterKey = keyring.current().key;
  const box = new SecretBox(keyring);
  const admin = createAdminServices({ ...resources, masterKey: () => keyring });
  // Live organisations and their test-mode twins (issue 25): what the responses, the events and the engine ask.
  const orgModes = new OrgModes(store.orgs);
  const prices = new PriceTable(config);
  const caps = new SpendCaps(resources);
  const projects = new ProjectsService(resources);
  // Artifact links are signed with a key derived from the master key, as are webhook secrets sealed under it.
  const linkSigner = new LinkSigner(masterKey);
  const artifacts = new ArtifactsService(resources, { signer: linkSigner, publicUrl });
  // A run's files are artifacts too, with links of their own: served as attachments, never inline (issue 23).
  const runFiles = new RunFilesService(resources, { artifacts, signer: new LinkSigner(masterKey, { purpose: RUN_FILE_LINK_PURPOSE }), publicUrl });
  // Uploaded files (POST /v1/files), which the engine places in its runs' sandboxes.
  const files = new FilesService(resources);
  const eventLog = new EventLog({ store: store.events, clock, events: resources.events });
  const schemas = userSchemasSubsystem(config);
  // Its delivery worker is the webhooks subsystem.
  const outbox = new WebhookOutbox({ store: store.webhooks, clock, ids: resources.ids, events: resources.events, retryScheduleS: config['webhooks.retry_schedule_s'] });
  // Every event goes through it: into the log and, as the catalogue says, the outbox, in its cause's unit of work.
  const announcer = new EventAnnouncer({ log: eventLog, webhooks: outbox, store, ids: resources.ids });
  // Off unless metrics.port is set: then the parts below report to it.
  const metrics = config['metrics.port'] === null ? null : new Metrics({ store, events: resources.events });
  // One request rate per key, through the REST API and the MCP front door alike.
  const rateLimiter = new RateLimiter(config['limits.requests_per_minute'], clock);

  const mail = mailSubsystems({
    resources,
    settings: readMailSettings(config),
    masterKey,
    box,
    announcer,
    checkCallbackUrl,
    dns,
    linkSigner,
    publicUrl,
    ...(metrics ? { observer: metrics.mailObserver } : {}),
  });
  // Before the sandboxes: an unusable oauth.providers is reported before a driver starts anything.
  const connections = connectionsSubsystem({ resources, projects, box, masterKey, announcer, guard, checkCallbackUrl, publicUrl });
  const sandboxes = await sandboxesSubsystem({ config, home: options.home, logger, metrics });
  const checkSandboxLabel = sandboxLabelCheck(sandboxes.services.driver);
  const jobs = new JobsService(resources, projects, schemas.services.schemas, { checkCallbackUrl, announcer, checkSandboxLabel });
  // The live view: links signed under the master key, and the running attempts the engine lists for it.
  const liveLinks = new LiveLinks({ masterKey, clock, publicUrl, runStatus: (orgId, runId) => store.runs.get(orgId, runId)?.status ?? null });
  const liveRuns = new LiveRuns();
  const engine = engineSubsystem({
    resources,
    env: options.env ?? process.env,
    projects,
    jobs,
    schemas: schemas.services.schemas,
    caps,
    prices,
    announcer,
    artifacts,
    runFiles,
    publicUrl,
    checkCallbackUrl,
    toolSources: mail.services.runTools === null ? [connections.services.toolSource] : [connections.services.toolSource, mail.services.runTools],
    connections: connections.services.runConnections,
    driver: sandboxes.services.driver,
    mailStatus: () => mail.status(),
    human: { notifier: emailNotifier(mail.services.emails) },
    live: liveRuns,
    liveUrlOf: (orgId, runId) => liveLinks.urlOf(orgId, runId),
    files,
    orgModes,
  });
  const { runs } = engine.services;
  const live = new LiveService({ clock, links: liveLinks, live: liveRuns, runs, steps: store.steps, orgModes, human: engine.services.human });
  const webhooks = webhooksSubsystem({ resources, announcer, guard, signingSecrets: admin.signingSecrets, emailSigningSecrets: mail.services.identitySecrets, metrics });
  const schedules = schedulesSubsystem({ resources, eventLog, announcer, jobs, runs });
  const retention = retentionSubsystem(resources);
  const eventStreams = eventStreamsSubsystem({ resources, eventLog, runs });
  const mcp = mcpSubsystem({
    resources,
    keys: admin.keys,
    rateLimiter,
    publicUrl,
    runs,
    runFiles,
    human: engine.services.human,
    jobs,
    projects,
    connections: connections.services.connections,
    hostedConnect: connections.services.hostedConnect,
    emails: mail.services.emails,
    sentEmails: mail.services.sentEmails,
    orgModes,
  });
  const http = await httpSubsystem({
    app: {
      services: {
        keys: admin.keys,
        orgModes,
        rateLimiter,
        projects,
        jobs,
        recipes: engine.services.recipes,
        runs,
        human: engine.services.human,
        steps: engine.services.steps,
        artifacts,
        runFiles,
        eventStreams: eventStreams.services.eventStreams,
        status: engine.services.status,
        skippedFirings: schedules.services.skippedFirings,
        ...mcp.services,
        connections: connections.services.connections,
        hostedConnect: connections.services.hostedConnect,
        emails: mail.services.emails,
        sentEmails: mail.services.sentEmails,
        identities: mail.services.identities,
        suppressions: mail.services.suppressions,
        receivedEmails: mail.services.received,
        simulatedReplies: mail.services.simulatedReplies,
        mailAttachments: mail.services.attachments,
        inboxes: mail.services.inboxes,
        live,
        liveLinks,
        files,
      },
      logger,
      accessLogger: options.accessLogger ?? logger,
      ids: resources.ids,
      ...(metrics ? { metrics } : {}),
    },
    config,
    address,
  });
  const metricsListener = metricsSubsystem({ metrics, sandboxes: sandboxes.services.driver, mailQueue: mail.services.outbound, config, logger });

  // Started in this order and closed in the reverse, so that on close: no more purging, no new firings, no mail
  // arriving; then runs finish or stop while the API still answers their polls; then the mail being sent is
  // recorded; then the last webhooks go out; then streams end, in-flight requests drain and the store closes.
  // "Before" and "after" below are on close.
  const parts = new SubsystemList(
    [
      // Last: everything writes to the store.
      storage,
      // Every part that calls out resolves and checks its targets through it.
      network,
      // It records what the other parts do, to the end.
      metricsListener,
      // After the API has drained (requests' schemas) and the engine has stopped (runs' outputs).
      schemas,
      // Used by the API, the MCP front door and the engine.
      connections,
      http,
      // Before the API: open streams would hold its server open; their clients reconnect with Last-Event-ID.
      eventStreams,
      // Before the API for the same reason; after the engine, so that tool calls waiting for runs answer first.
      mcp,
      // After mail sending and the engine: email events and runs' ends go out as webhooks.
      webhooks,
      mail.sending,
      // After the engine: runs use their sandboxes until they stop.
      sandboxes,
      engine,
      // Before the engine: what arrives is written to runs' mailboxes (and the outbox, and the store).
      mail.receiving,
      // Before the engine: a firing creates a run.
      schedules,
      // First: a purge stops between two batches.
      retention,
    ],
    logger,
  );

  return {
    resources,
    admin,
    runs,
    app: http.services.app,
    modelProviderProblem: engine.services.modelProviderProblem,
    async start() {
      await parts.start();
      return http.services.url()!;
    },
    mailStatus: () => mail.status(),
    close: () => parts.close(),
  };
}
