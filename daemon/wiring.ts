import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { createAdminServices, type AdminServices } from '../src/admin-services.js';
import { ArtifactsService } from '../src/artifacts/artifacts-service.js';
import { ConnectionAuth } from '../src/connections/connection-auth.js';
import { ConnectionSecrets } from '../src/connections/connection-secrets.js';
import { ConnectionsService } from '../src/connections/connections-service.js';
import { RunConnections } from '../src/connections/run-connections.js';
import { checkMcpServer } from '../src/connections/mcp-client/mcp-check.js';
import { McpToolSource } from '../src/connections/mcp-client/mcp-tool-source.js';
import { ConnectPages } from '../src/connections/oauth-client/connect-pages.js';
import { CONNECT_LINK_VALIDITY_S, HostedConnect } from '../src/connections/oauth-client/hosted-connect.js';
import { OAuthClient } from '../src/connections/oauth-client/oauth-client.js';
import { parseOAuthProviders } from '../src/connections/oauth-client/oauth-providers.js';
import { TokenRefresher } from '../src/connections/oauth-client/token-refresher.js';
import { LinkSigner } from '../src/artifacts/link-signer.js';
import { SpendCaps } from '../src/billing/caps.js';
import { PriceTable } from '../src/billing/prices.js';
import { systemClock, type Clock } from '../src/clock.js';
import type { Config } from '../src/config/schema.js';
import { Dispatcher } from '../src/engine/dispatcher.js';
import { createProvider } from '../src/engine/providers/create-provider.js';
import { FirstCallBound } from '../src/engine/first-call-bound.js';
import { modelProviderProblem, runProblems } from '../src/engine/run-problems.js';
import { RunExecutor } from '../src/engine/run-executor.js';
import { SandboxMeters } from '../src/engine/sandbox-meter.js';
import { ToolRegistry } from '../src/engine/tools/registry.js';
import { EventLog } from '../src/event-log/event-log.js';
import { EventStreams } from '../src/event-log/event-streams.js';
import { EventBus } from '../src/events.js';
import { createIdFactory } from '../src/ids.js';
import { JobsService } from '../src/jobs/jobs-service.js';
import { createMailSystem } from '../src/mail/mail-system.js';
import { readMailSettings } from '../src/mail/mail-settings.js';
import { Metrics } from '../src/metrics/metrics.js';
import { timedDriver } from '../src/metrics/timed-driver.js';
import { RateLimiter } from '../src/keys/rate-limiter.js';
import { McpEndpoints } from '../src/mcp-server/endpoints.js';
import { McpFrontDoor } from '../src/mcp-server/front-door.js';
import { McpAuthenticator } from '../src/mcp-server/mcp-authenticator.js';
import { ClientRegistry } from '../src/mcp-server/oauth-server/client-registry.js';
import { ConsentFlow } from '../src/mcp-server/oauth-server/consent-flow.js';
import { ConsentPages } from '../src/mcp-server/oauth-server/consent-page.js';
import { TokenEndpoint } from '../src/mcp-server/oauth-server/token-endpoint.js';
import { connectionManagementTools } from '../src/mcp-server/tools/connection-management-tools.js';
import { coreTools } from '../src/mcp-server/tools/core-tools.js';
import { emailTools } from '../src/mcp-server/tools/email-tools.js';
import { RunWaiter } from '../src/mcp-server/tools/run-waiter.js';
import { McpToolRegistry } from '../src/mcp-server/tools/tool-registry.js';
import { packageVersion } from '../src/package-root.js';
import { ProjectsService } from '../src/projects/projects-service.js';
import { RetentionJob } from '../src/retention/retention-job.js';
import { RetentionService } from '../src/retention/retention-service.js';
import type { Resources } from '../src/resources.js';
import { runEndEvents } from '../src/runs/run-end-events.js';
import { RunsService } from '../src/runs/runs-service.js';
import { UserSchemas } from '../src/runs/user-schemas.js';
import { dataPaths } from '../src/runtime/paths.js';
import { PublicAddress } from '../src/runtime/public-address.js';
import type { SandboxDriver } from '../src/sandbox/driver.js';
import { selectDriver } from '../src/sandbox/select-driver.js';
import { firingEvents } from '../src/schedules/firing-events.js';
import { Scheduler } from '../src/schedules/scheduler.js';
import { SkippedFirings } from '../src/schedules/skipped-firings.js';
import { loadMasterKeyring } from '../src/secrets/master-key.js';
import { SecretBox } from '../src/secrets/secret-box.js';
import { StatusService } from '../src/status/status-service.js';
import { StepsService } from '../src/steps/steps-service.js';
import { openStore } from '../src/store/store.js';
import { WalCheckpointer } from '../src/store/wal-checkpointer.js';
import { DeliveryWorker, targetPolicy } from '../src/webhooks/delivery-worker.js';
import { WebhookOutbox } from '../src/webhooks/outbox.js';
import { checkWebhookTarget } from '../src/webhooks/target-guard.js';
import { buildApp } from './app.js';
import { MetricsServer } from './metrics-server.js';

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
  /** `host:port` of the inbound SMTP server once started, or null when the daemon receives no mail. */
  smtpAddress(): string | null;
  /** Stops taking requests, drains in-flight ones, stops background work, closes the store. Idempotent. */
  close(): Promise<void>;
}

/** Messages an MCP session keeps for clients resuming a broken stream: a long run's progress with room to spare. */
const MCP_REPLAY_EVENTS = 1000;

/** Wires every object of the daemon once, explicitly: no module-level state anywhere. */
export async function createDaemon(options: DaemonOptions): Promise<Daemon> {
  const { config, logger } = options;
  const clock = options.clock ?? systemClock;
  const store = openStore(dataPaths(options.home).database);
  const checkpointer = new WalCheckpointer(store.db, { logger: logger.child({ component: 'checkpoints' }) });
  const resources: Resources = {
    store,
    clock,
    logger,
    events: new EventBus(),
    config,
    ids: createIdFactory(() => clock.now()),
    home: options.home,
  };
  const address = new PublicAddress(config.public_url, config['server.host'], config['server.port']);
  const publicUrl = () => address.get();
  const policy = targetPolicy(config);
  const checkCallbackUrl = (url: string, param: string): Promise<void> => checkWebhookTarget(url, policy, param);
  // Read again when `errand secrets rotate-key` replaces the key file while the daemon runs.
  const keyring = loadMasterKeyring({ home: options.home, env: options.env });
  const masterKey = keyring.current().key;
  const box = new SecretBox(keyring);

  const admin = createAdminServices({ ...resources, masterKey: () => keyring });
  const schemas = new UserSchemas({ budgetMs: config['limits.schema_check_ms'] });
  const prices = new PriceTable(config);
  const caps = new SpendCaps(resources);
  const projects = new ProjectsService(resources);
  // Artifact links are signed with a key derived from the master key, as are webhook secrets sealed under it.
  const linkSigner = new LinkSigner(masterKey);
  const artifacts = new ArtifactsService(resources, { signer: linkSigner, publicUrl });
  const eventLog = new EventLog({ store: store.events, clock, events: resources.events });
  const jobs = new JobsService(resources, projects, schemas, { checkCallbackUrl, eventLog });

  // The webhook outbox row is written inside the unit of work of the run's terminal state (hooked in below).
  const outbox: WebhookOutbox = new WebhookOutbox({
    store: store.webhooks,
    clock,
    ids: resources.ids,
    events: resources.events,
    retryScheduleS: config['webhooks.retry_schedule_s'],
    envelope: (row) => runs.envelope(row),
  });
  // Off unless metrics.port is set: then every source below reports to it.
  const metrics: Metrics | null =
    config['metrics.port'] === null
      ? null
      : new Metrics({ store, events: resources.events, sandboxPoolSize: (): number => driver.warmCount, mailQueueDepth: (): number => mail.outbound.queueDepth() });
  const mail = createMailSystem({
    resources,
    settings: readMailSettings(config),
    masterKey,
    box,
    outbox,
    eventLog,
    checkCallbackUrl,
    linkSigner,
    publicUrl,
    ...(metrics ? { observer: metrics.mailObserver } : {}),
  });

  // Connections: what runs may use, and the MCP servers whose tools they are offered.
  const mcpOptions = { policy, connectTimeoutMs: config['connections.mcp_connect_timeout_s'] * 1000, version: packageVersion() };
  const connectionAuth = new ConnectionAuth({ store, clock, eventLog, outbox });
  const connectionSecrets = new ConnectionSecrets(box);
  const oauthProviders = new Map(
    [...parseOAuthProviders(config['oauth.providers'], { dev: config.dev })].map(([name, provider]) => [name, new OAuthClient(provider, () => clock.now())]),
  );
  const refresher = new TokenRefresher({ store, clock, secrets: connectionSecrets, auth: connectionAuth, clients: oauthProviders, logger: logger.child({ component: 'oauth' }) });
  const runConnections = new RunConnections({ store, secrets: connectionSecrets, freshTokens: (row) => refresher.fresh(row) });
  const connectionTools = new McpToolSource({
    connections: runConnections,
    secrets: connectionSecrets,
    auth: connectionAuth,
    session: mcpOptions,
    callTimeoutMs: config['connections.mcp_call_timeout_s'] * 1000,
    recheck: (row) => connections.checkRow(store.connections.get(row.org_id, row.id) ?? row),
    logger: logger.child({ component: 'mcp' }),
  });
  const connections = new ConnectionsService(resources, {
    projects,
    secrets: connectionSecrets,
    auth: connectionAuth,
    checkTarget: checkCallbackUrl,
    checkMcp: (endpoint) => checkMcpServer(endpoint, mcpOptions),
    checkOAuth: async (row) => {
      await refresher.fresh(row, { force: true });
    },
    lapsed: (row) => hostedConnect.lapsed(row),
  });
  const hostedConnect = new HostedConnect(resources, {
    projects,
    secrets: connectionSecrets,
    box,
    auth: connectionAuth,
    clients: oauthProviders,
    signer: new LinkSigner(masterKey, { purpose: 'errand connect links v1', validityS: CONNECT_LINK_VALIDITY_S }),
    pages: new ConnectPages(),
    publicUrl,
  });

  const tools = new ToolRegistry({ codeTimeoutS: config['sandbox.code_timeout_s'], schemas, extraSources: mail.runTools === null ? [connectionTools] : [connectionTools, mail.runTools] });
  const firstCall = new FirstCallBound({ tools: tools.everyRun, config, prices, clock });
  const meters = new SandboxMeters(clock);
  const runs: RunsService = new RunsService(
    resources,
    { projects, jobs, schemas, caps, prices, eventLog },
    {
      publicUrl,
      linkScreenshot: (id) => artifacts.signedUrl(id),
      checkCallbackUrl,
      settleUsage: (runId) => meters.settle(runId),
      startCost: (model, prompt, outputSchema) => firstCall.startCost(model, prompt, outputSchema),
      runProblems: (run) => runProblems(provider, runConnections, run),
    },
  );
  runs.addTransitionHook(outbox.onTransition);
  // The final envelope is logged in the same unit of work, for the live streams.
  runs.addTransitionHook(runEndEvents(eventLog, (row) => runs.envelope(row)));
  const steps = new StepsService(resources, (id) => artifacts.signedUrl(id));
  const webhookWorker = new DeliveryWorker({
    store,
    signingSecrets: (orgId) => admin.signingSecrets.signingSecrets(orgId),
    emailSigningSecrets: (orgId) => mail.identities.signingSecrets(orgId),
    clock,
    logger: logger.child({ component: 'webhooks' }),
    events: resources.events,
    eventLog,
    config,
    ...(metrics ? { onAttempt: (status, latencyMs) => metrics.webhookAttempt(status === 'pending' ? 'retrying' : status, latencyMs / 1000) } : {}),
  });
  const retentionLogger = logger.child({ component: 'retention' });
  const retention = new RetentionJob(new RetentionService({ ...resources, logger: retentionLogger }), {
    intervalMs: config['retention.interval_min'] * 60_000,
    logger: retentionLogger,
  });
  const skippedFirings = new SkippedFirings({ store, eventLog, jobs });
  const scheduler = new Scheduler({
    jobs: store.jobs,
    runs,
    logger: logger.child({ component: 'scheduler' }),
    events: resources.events,
    onFiring: firingEvents(store, eventLog),
    recordSkipped: (orgId, jobId, slot, error) => skippedFirings.record(orgId, jobId, slot, error),
  });
  const eventStreams = new EventStreams({
    log: eventLog,
    events: resources.events,
    heartbeatMs: config['events.heartbeat_s'] * 1000,
    runStatus: (orgId, runId) => runs.row(orgId, runId).status,
    logger: logger.child({ component: 'event-streams' }),
  });

  const provider = createProvider({ config, env: options.env ?? process.env });
  const selected = await selectDriver({ config, home: options.home, logger });
  const driver: SandboxDriver = metrics ? timedDriver(selected, (name, seconds) => metrics.sandboxStarted(name, seconds)) : selected;
  const stepEvents = { eventLog, linkScreenshot: (id: string) => artifacts.signedUrl(id) };
  const executor = new RunExecutor(resources, { runs, provider, driver, artifacts, caps, prices, tools, meters, stepEvents, connections: runConnections });
  const dispatcher = new Dispatcher(resources, { runs, executor }, { instanceId: `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}` });

  const status = new StatusService(resources, { provider, driver, version: packageVersion() });

  // The MCP front door: the same services, as tools. A tool from another area is one more entry in the registry's
  // list.
  const rateLimiter = new RateLimiter(config['limits.requests_per_minute'], clock);
  const mcpLogger = logger.child({ component: 'mcp' });
  const mcpEndpoints = new McpEndpoints(publicUrl);
  const waiter = new RunWaiter({ runs, events: resources.events, lookEveryMs: 1000 });
  const mcpTools = new McpToolRegistry(
    [
      ...coreTools({ runs, jobs, projects, waiter, maxWaitS: config['mcp.run_wait_s'] }),
      ...connectionManagementTools({ connections, hostedConnect }),
      ...emailTools({ emails: mail.emails }),
    ],
    mcpLogger,
  );
  const mcp = new McpFrontDoor({
    tools: mcpTools,
    endpoints: mcpEndpoints,
    logger: mcpLogger,
    clock,
    version: packageVersion(),
    maxSessions: config['mcp.max_sessions'],
    sessionIdleMs: config['mcp.session_idle_s'] * 1000,
    replayEvents: MCP_REPLAY_EVENTS,
    allowedOrigins: (config['mcp.allowed_origins'] ?? '').split(',').map((o) => o.trim()).filter(Boolean),
  });
  // Its OAuth 2.1 authorization server: grants act under an API key, so the key service signs users in.
  const oauthClients = new ClientRegistry(resources);
  const consent = new ConsentFlow(resources, { clients: oauthClients, keys: admin.keys, endpoints: mcpEndpoints, pages: new ConsentPages() });
  const tokens = new TokenEndpoint(resources, { clients: oauthClients, endpoints: mcpEndpoints });
  const mcpAuth = new McpAuthenticator({ keys: admin.keys, rateLimiter, endpoints: mcpEndpoints, accessTokens: tokens });

  const app = await buildApp({
    services: {
      keys: admin.keys,
      rateLimiter,
      projects,
      jobs,
      runs,
      steps,
      artifacts,
      eventStreams,
      status,
      skippedFirings,
      mcp,
      mcpAuth,
      mcpEndpoints,
      oauthClients,
      consent,
      tokens,
      connections,
      hostedConnect,
      emails: mail.emails,
      identities: mail.identities,
      suppressions: mail.suppressions,
      receivedEmails: mail.received,
      mailAttachments: mail.attachments,
      inboxes: mail.inboxes,
    },
    logger,
    accessLogger: options.accessLogger ?? logger,
    ids: resources.ids,
    ...(metrics ? { metrics } : {}),
  });
  const metricsServer = metrics ? new MetricsServer(metrics, logger.child({ component: 'metrics' })) : null;

  let closing: Promise<void> | null = null;
  let smtp: string | null = null;
  return {
    resources,
    admin,
    runs,
    app,
    modelProviderProblem: modelProviderProblem(provider),
    async start() {
      checkpointer.start();
      await app.listen({ host: config['server.host'], port: config['server.port'] });
      const url = address.listening(config['server.host'], (app.server.address() as { port: number }).port);
      // The count of active runs is kept by the code that changes runs; recounting it here mends any drift (a run
      // deleted by hand) before the first run is admitted.
      store.transaction((uow) => store.runs.recountActive(uow));
      const unusable = provider.unusableReason();
      if (unusable !== null) logger.warn({ provider: provider.name }, `no usable model provider: ${unusable}; runs will fail until it is set`);
      await dispatcher.start();
      webhookWorker.start();
      mail.outbound.start();
      if (mail.inbound !== null) {
        const listening = await mail.inbound.listen();
        smtp = `${listening.host.includes(':') ? `[${listening.host}]` : listening.host}:${listening.port}`;
        logger.info({ smtp }, 'receiving mail');
      }
      scheduler.start();
      retention.start();
      await metricsServer?.listen(config['metrics.host'], config['metrics.port']!);
      eventStreams.start();
      return url;
    },
    smtpAddress: () => smtp,
    close() {
      closing ??= (async () => {
        // No more purging (it stops between two batches); no new firings; then runs finish or stop (the API still
        // answers their polls); then the mail being sent is recorded; then the last webhooks go out; then event
        // streams end, in-flight requests drain and the store closes.
        await retention.close();
        await scheduler.close();
        // Mail stops arriving before anything it writes to (runs' mailboxes, the outbox, the store) closes.
        await mail.inbound?.close();
        await dispatcher.close();
        await driver.close();
        await mail.outbound.close();
        await mail.transport.close();
        await webhookWorker.close();
        // Open MCP streams would hold the server open; tool calls waiting for runs answer first.
        await mcp.close();
        // Open streams would hold the server open; their clients reconnect with Last-Event-ID.
        eventStreams.close();
        await app.close();
        await schemas.close();
        await metricsServer?.close();
        metrics?.close();
        await checkpointer.close();
        store.close();
      })();
      return closing;
    },
  };
}
