import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { ArtifactsService } from '../src/artifacts/artifacts-service.js';
import { LinkSigner } from '../src/artifacts/link-signer.js';
import { SpendCaps } from '../src/billing/caps.js';
import { PriceTable } from '../src/billing/prices.js';
import { systemClock, type Clock } from '../src/clock.js';
import type { Config } from '../src/config/schema.js';
import { Dispatcher } from '../src/engine/dispatcher.js';
import { createProvider } from '../src/engine/providers/create-provider.js';
import { RunExecutor } from '../src/engine/run-executor.js';
import { ToolRegistry } from '../src/engine/tools/registry.js';
import { EventBus } from '../src/events.js';
import { createIdFactory } from '../src/ids.js';
import { JobsService } from '../src/jobs/jobs-service.js';
import { KeysService } from '../src/keys/keys-service.js';
import { RateLimiter } from '../src/keys/rate-limiter.js';
import { OrgsService } from '../src/orgs/orgs-service.js';
import { ProjectsService } from '../src/projects/projects-service.js';
import type { Resources } from '../src/resources.js';
import { RunsService } from '../src/runs/runs-service.js';
import { UserSchemas } from '../src/runs/user-schemas.js';
import { dataPaths } from '../src/runtime/paths.js';
import { selectDriver } from '../src/sandbox/select-driver.js';
import { Scheduler } from '../src/schedules/scheduler.js';
import { loadMasterKey } from '../src/secrets/master-key.js';
import { SecretBox } from '../src/secrets/secret-box.js';
import { StepsService } from '../src/steps/steps-service.js';
import { openStore } from '../src/store/store.js';
import { DeliveryWorker, targetPolicy } from '../src/webhooks/delivery-worker.js';
import { WebhookOutbox } from '../src/webhooks/outbox.js';
import { SigningSecrets } from '../src/webhooks/signing-secrets.js';
import { checkWebhookTarget } from '../src/webhooks/target-guard.js';
import { buildApp } from './app.js';
import { artifactRoutes } from './routes/artifacts.js';
import { stepRoutes } from './routes/steps.js';

export interface DaemonOptions {
  home: string;
  config: Config;
  logger: Logger;
  clock?: Clock;
  /** Where model API keys come from (ANTHROPIC_API_KEY, OPENAI_API_KEY); default process.env. */
  env?: NodeJS.ProcessEnv;
}

export interface Daemon {
  resources: Resources;
  orgs: OrgsService;
  keys: KeysService;
  runs: RunsService;
  app: FastifyInstance;
  /** The run engine's worker; started by start(). */
  dispatcher: Dispatcher;
  artifacts: ArtifactsService;
  /** Listens and starts background work; resolves to the address. */
  start(): Promise<string>;
  /** Stops taking requests, drains in-flight ones, stops background work, closes the store. Idempotent. */
  close(): Promise<void>;
}

/** Wires every object of the daemon once, explicitly: no module-level state anywhere. */
export async function createDaemon(options: DaemonOptions): Promise<Daemon> {
  const { config, logger } = options;
  const clock = options.clock ?? systemClock;
  const paths = dataPaths(options.home);
  const store = openStore(paths.database);
  const resources: Resources = {
    store,
    clock,
    logger,
    events: new EventBus(),
    config,
    ids: createIdFactory(() => clock.now()),
    home: options.home,
  };

  let publicUrl = config.public_url ?? `http://${config['server.host']}:${config['server.port']}`;
  const policy = targetPolicy(config);
  const checkCallbackUrl = (url: string, param: string): Promise<void> => checkWebhookTarget(url, policy, param);

  const orgs = new OrgsService(resources);
  const keys = new KeysService(resources);
  const schemas = new UserSchemas();
  const prices = new PriceTable(config);
  const caps = new SpendCaps(resources);
  // Late-bound: the scheduler needs RunsService, which needs JobsService, which tells the scheduler about changes.
  let scheduler: Scheduler | null = null;
  const onJobsChanged = () => scheduler?.sync();
  const projects = new ProjectsService(resources, { onJobsChanged });
  const masterKey = loadMasterKey({ home: options.home, env: options.env });
  // Artifact links are signed with a key derived from the master key, as are webhook secrets sealed under it.
  const artifacts = new ArtifactsService(resources, {
    signer: new LinkSigner(masterKey),
    publicUrl: () => publicUrl,
  });
  const jobs = new JobsService(resources, projects, schemas, { checkCallbackUrl, onJobsChanged });
  const runs = new RunsService(
    resources,
    { projects, jobs, schemas, caps, prices },
    { publicUrl: () => publicUrl, linkScreenshot: (id) => artifacts.signedUrl(id), checkCallbackUrl },
  );

  // The webhook outbox row is written inside the transaction of the run's terminal state.
  const signingSecrets = new SigningSecrets({ store, box: new SecretBox(masterKey), clock });
  const outbox = new WebhookOutbox({
    store: store.webhooks,
    clock,
    ids: resources.ids,
    events: resources.events,
    retryScheduleS: config['webhooks.retry_schedule_s'],
    envelope: (row) => runs.envelope(row),
  });
  runs.addTransitionHook(outbox.onTransition);
  const webhookWorker = new DeliveryWorker({
    store,
    signingSecrets: (orgId) => signingSecrets.signingSecrets(orgId),
    clock,
    logger: logger.child({ component: 'webhooks' }),
    events: resources.events,
    config,
  });
  const cron = new Scheduler({ jobs: store.jobs, runs, logger: logger.child({ component: 'scheduler' }) });
  scheduler = cron;

  const provider = createProvider({ config, env: options.env ?? process.env });
  const driver = await selectDriver({ config, home: options.home, logger });
  const tools = new ToolRegistry({ codeTimeoutS: config['sandbox.code_timeout_s'], schemas });
  const executor = new RunExecutor(resources, { runs, provider, driver, artifacts, caps, prices, tools });
  const dispatcher = new Dispatcher(resources, { runs, executor }, { instanceId: `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}` });
  const steps = new StepsService(resources, (id) => artifacts.signedUrl(id));

  const app = await buildApp({
    services: { keys, projects, jobs, runs },
    logger,
    ids: resources.ids,
    rateLimiter: new RateLimiter(config['limits.requests_per_minute'], clock),
    extraRoutes: [
      async (v1: FastifyInstance) => {
        await v1.register(artifactRoutes, { artifacts });
        await v1.register(stepRoutes, { steps });
      },
    ],
  });

  let closing: Promise<void> | null = null;
  return {
    resources,
    orgs,
    keys,
    runs,
    app,
    dispatcher,
    artifacts,
    async start() {
      const address = await app.listen({ host: config['server.host'], port: config['server.port'] });
      const port = (app.server.address() as { port: number }).port;
      if (config.public_url === null) publicUrl = `http://${hostForUrl(config['server.host'])}:${port}`;
      // The count of active runs is kept by the code that changes runs; recounting it here mends any drift (a run
      // deleted by hand) before the first run is admitted.
      store.transaction((uow) => store.runs.recountActive(uow));
      const unusable = provider.unusableReason();
      if (unusable !== null) logger.warn({ provider: provider.name }, `no usable model provider: ${unusable}; runs will fail until it is set`);
      await dispatcher.start();
      webhookWorker.start();
      cron.start();
      return address.startsWith('http://') ? `http://${hostForUrl(config['server.host'])}:${port}` : address;
    },
    close() {
      closing ??= (async () => {
        // No new firings; then runs finish or stop (the API still answers their polls); then the last webhooks go
        // out; then in-flight requests drain and the store closes.
        await cron.close();
        await dispatcher.close();
        await driver.close();
        await webhookWorker.close();
        await app.close();
        store.close();
      })();
      return closing;
    },
  };
}

function hostForUrl(host: string): string {
  if (host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}
