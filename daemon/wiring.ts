import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { createAdminServices, type AdminServices } from '../src/admin-services.js';
import { artifactsSubsystem } from '../src/artifacts/artifacts-subsystem.js';
import type { AttemptParticipant } from '../src/attempt/attempt-participant.js';
import { billingSubsystem } from '../src/billing/billing-subsystem.js';
import { systemClock, type Clock } from '../src/clock.js';
import type { Config } from '../src/config/schema.js';
import { connectionsSubsystem } from '../src/connections/connections-subsystem.js';
import { engineSubsystem } from '../src/engine/engine-subsystem.js';
import { evalsSubsystem } from '../src/evals/evals-subsystem.js';
import { eventStreamsSubsystem } from '../src/event-log/event-streams-subsystem.js';
import { EventBus } from '../src/events.js';
import { filesSubsystem } from '../src/files/files-subsystem.js';
import { emailNotifier } from '../src/human/human-notifier.js';
import { humanSubsystem } from '../src/human/human-subsystem.js';
import { createIdFactory } from '../src/ids.js';
import { jobsSubsystem } from '../src/jobs/jobs-subsystem.js';
import { requestRateLimiter } from '../src/keys/rate-limiter.js';
import { liveSubsystem } from '../src/live/live-subsystem.js';
import { mailSubsystems } from '../src/mail/mail-subsystems.js';
import { readMailSettings } from '../src/mail/mail-settings.js';
import type { MailStatus } from '../src/mail/mail-status.js';
import { mcpSubsystem } from '../src/mcp-server/mcp-subsystem.js';
import { metricsRegistry, metricsSubsystem } from '../src/metrics/metrics-subsystem.js';
import { networkSubsystem } from '../src/network/network-subsystem.js';
import { profilesSubsystem } from '../src/profiles/profiles-subsystem.js';
import { projectsSubsystem } from '../src/projects/projects-subsystem.js';
import { recipesSubsystem } from '../src/recipes/recipes-subsystem.js';
import { recordingParticipant } from '../src/recording/recording-participant.js';
import type { Resources } from '../src/resources.js';
import { retentionSubsystem } from '../src/retention/retention-subsystem.js';
import { runFilesSubsystem } from '../src/run-files/run-files-subsystem.js';
import { proxyParticipant } from '../src/run-proxy/proxy-participant.js';
import type { RunsService } from '../src/runs/runs-service.js';
import { runsSubsystem } from '../src/runs/runs-subsystem.js';
import { userSchemasSubsystem } from '../src/runs/user-schemas-subsystem.js';
import { PublicAddress } from '../src/runtime/public-address.js';
import { sandboxLabelCheck } from '../src/sandbox/sandbox-label.js';
import { sandboxesSubsystem } from '../src/sandbox/sandboxes-subsystem.js';
import { schedulesSubsystem } from '../src/schedules/schedules-subsystem.js';
import { secretsSubsystem } from '../src/secrets/secrets-subsystem.js';
import { statusSubsystem } from '../src/status/status-subsystem.js';
import { stepsSubsystem } from '../src/steps/steps-subsystem.js';
import { storageSubsystem } from '../src/store/storage-subsystem.js';
import { SubsystemList } from '../src/subsystem.js';
import { testModeSubsystem } from '../src/test-mode/test-mode-subsystem.js';
import { runSpanHook } from '../src/tracing/run-span-hook.js';
import { tracingSubsystem } from '../src/tracing/tracing-subsystem.js';
import { announcementsSubsystem } from '../src/webhooks/announcements-subsystem.js';
import { waitpointsSubsystem } from '../src/waitpoints/waitpoints-subsystem.js';
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
  /** Participants of every attempt after the daemon's own (an embedder's, or a test's): docs/architecture.md. */
  participants?: readonly AttemptParticipant[];
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
  const secrets = secretsSubsystem({ home: options.home, env: options.env });
  const { keyring, masterKey, box } = secrets.services;
  const admin = createAdminServices({ ...resources, masterKey: () => keyring });
  const { orgModes } = admin;
  const { prices, caps } = billingSubsystem(resources).services;
  const { projects } = projectsSubsystem(resources).services;
  const { artifacts, linkSigner } = artifactsSubsystem({ resources, masterKey, publicUrl }).services;
  const runFiles = runFilesSubsystem({ resources, artifacts, masterKey, publicUrl });
  const files = filesSubsystem(resources);
  const schemas = userSchemasSubsystem(config);
  const { eventLog, announcer } = announcementsSubsystem(resources).services;
  // Off unless metrics.port is set: then the parts below report to it.
  const metrics = metricsRegistry(resources);
  // Off unless an OTLP endpoint is set (OTEL_EXPORTER_OTLP_* or tracing.*): then runs are traces.
  const tracingPart = await tracingSubsystem({ config, env: options.env ?? process.env, logger });
  const { tracing } = tracingPart.services;
  const rateLimiter = requestRateLimiter(resources);

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
  const { driver } = sandboxes.services;
  const checkSandboxLabel = sandboxLabelCheck(driver);
  const profiles = profilesSubsystem({ resources, box, announcer, driver });
  const { jobs } = jobsSubsystem({ resources, projects, schemas: schemas.services.schemas, checkCallbackUrl, announcer, checkSandboxLabel }).services;
  // Runs, then what plugs into them: the live view, a person in the loop, recipes, steps, test mode, the engine.
  const { runs } = runsSubsystem({
    resources,
    projects,
    jobs,
    schemas: schemas.services.schemas,
    caps,
    prices,
    announcer,
    publicUrl,
    linkScreenshot: (id) => artifacts.signedUrl(id),
    checkCallbackUrl,
    filesOf: (row) => runFiles.services.runFiles.filesOf(row),
    checkSandboxLabel,
  }).services;
  if (tracing.enabled) runs.addTransitionHook(runSpanHook(tracing));
  const { waitpoints } = waitpointsSubsystem({ resources, runs, tracing }).services;
  // A person in the loop is shown the run's live view, which the live view plugs into runs as it is built.
  const human = humanSubsystem({ resources, runs, announcer, publicUrl, liveUrlOf: (orgId, runId) => runs.liveUrl(orgId, runId), notifier: emailNotifier(mail.services.emails), waitpoints });
  const logins = profiles.services.profiles;
  const live = liveSubsystem({
    resources,
    masterKey,
    publicUrl,
    runs,
    orgModes,
    human: human.services.human,
    waitpoints,
    logins: { save: (run, name, state, holder) => logins.saveFromLiveView(run, name, state, holder), targets: (run) => logins.liveViewTargets(run) },
  });
  const recipes = recipesSubsystem({ resources, jobs, schemas: schemas.services.schemas });
  const { steps, stepEvents } = stepsSubsystem({ resources, artifacts, announcer }).services;
  const testMode = testModeSubsystem({ resources, runs, artifacts, prices, stepEvents, human: human.services.human, schemas: schemas.services.schemas, connections: connections.services.runConnections });
  const engine = engineSubsystem({
    resources,
    env: options.env ?? process.env,
    runs,
    schemas: schemas.services.schemas,
    caps,
    prices,
    artifacts,
    stepEvents,
    toolSources: mail.services.runTools === null ? [connections.services.toolSource] : [connections.services.toolSource, mail.services.runTools],
    everyRunTools: [human.services.tool],
    submissionHold: human.services.submissionHold,
    connections: connections.services.runConnections,
    driver,
    // Each attempt's participants, in the order they join (docs/architecture.md, "Adding a participant").
    participants: [
      proxyParticipant,
      // After the proxy (a warm browser is launched again through it), before the recording and the live view: the
      // browser starts signed in, checked, before anyone watches.
      profiles.services.participant,
      runFiles.services.participant,
      files.services.participant,
      recordingParticipant({ artifacts, clock, enabled: config['recording.enabled'] }),
      live.services.participant,
      human.services.participant,
      recipes.services.participant,
      ...(options.participants ?? []),
    ],
    orgModes,
    testRunner: testMode.services.runner,
    waitpoints,
    tracing,
  });
  const evals = evalsSubsystem({
    resources,
    jobs,
    runs,
    keys: admin.keys,
    schemas: schemas.services.schemas,
    announcer,
    masterKey,
    publicUrl,
    checkCallbackUrl,
    checkSandboxLabel,
  });
  const { status } = statusSubsystem({ resources, provider: engine.services.provider, driver, mailStatus: () => mail.status() }).services;
  const webhooks = webhooksSubsystem({ resources, announcer, guard, signingSecrets: admin.signingSecrets, emailSigningSecrets: mail.services.identitySecrets, metrics, tracing });
  const schedules = schedulesSubsystem({ resources, eventLog, announcer, jobs, runs });
  const retention = retentionSubsystem(resources);
  const eventStreams = eventStreamsSubsystem({ resources, eventLog, runs });
  const mcp = mcpSubsystem({
    resources,
    keys: admin.keys,
    rateLimiter,
    publicUrl,
    runs,
    runFiles: runFiles.services.runFiles,
    human: human.services.human,
    jobs,
    projects,
    connections: connections.services.connections,
    hostedConnect: connections.services.hostedConnect,
    profiles: profiles.services.profiles,
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
        recipes: recipes.services.recipes,
        evals: evals.services.evals,
        evalCases: evals.services.evalCases,
        runs,
        human: human.services.human,
        steps,
        artifacts,
        runFiles: runFiles.services.runFiles,
        eventStreams: eventStreams.services.eventStreams,
        status,
        skippedFirings: schedules.services.skippedFirings,
        ...mcp.services,
        connections: connections.services.connections,
        hostedConnect: connections.services.hostedConnect,
        profiles: profiles.services.profiles,
        emails: mail.services.emails,
        sentEmails: mail.services.sentEmails,
        identities: mail.services.identities,
        suppressions: mail.services.suppressions,
        receivedEmails: mail.services.received,
        simulatedReplies: mail.services.simulatedReplies,
        mailAttachments: mail.services.attachments,
        inboxes: mail.services.inboxes,
        live: live.services.live,
        liveLinks: live.services.links,
        files: files.services.files,
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
      // After the engine and the webhooks: the spans of the last runs' ends are flushed as it shuts down.
      tracingPart,
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
      // Its expiry sweep; checks on demand use the sandboxes, which close after it.
      profiles,
      engine,
      // Before the engine: no eval makes a run once runs are stopping (its cases carry on at the next start).
      evals,
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
