import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { SpendCaps } from '../src/billing/caps.js';
import { PriceTable } from '../src/billing/prices.js';
import { systemClock, type Clock } from '../src/clock.js';
import type { Config } from '../src/config/schema.js';
import { InvalidRequestError } from '../src/errors.js';
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
import { openStore } from '../src/store/store.js';
import { checkWebhookTarget } from '../src/webhooks/target-guard.js';
import { buildApp } from './app.js';

export interface DaemonOptions {
  home: string;
  config: Config;
  logger: Logger;
  clock?: Clock;
}

export interface Daemon {
  resources: Resources;
  orgs: OrgsService;
  keys: KeysService;
  runs: RunsService;
  app: FastifyInstance;
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
  const allowPrivate = config.dev || config['webhooks.allow_private_targets'];
  const checkCallbackUrl = async (url: string, param: string): Promise<void> => {
    try {
      await checkWebhookTarget(url, { allowPrivate });
    } catch (err) {
      if (err instanceof InvalidRequestError && param !== err.param) {
        throw new InvalidRequestError(err.code, err.message.replace(/^callback_url/, param), { param });
      }
      throw err;
    }
  };

  const orgs = new OrgsService(resources);
  const keys = new KeysService(resources);
  const schemas = new UserSchemas();
  const prices = new PriceTable(config);
  const caps = new SpendCaps(resources);
  const projects = new ProjectsService(resources);
  const jobs = new JobsService(resources, projects, schemas, { checkCallbackUrl });
  const runs = new RunsService(
    resources,
    { projects, jobs, schemas, caps, prices },
    { publicUrl: () => publicUrl, linkScreenshot: (id) => `${publicUrl}/v1/artifacts/${id}`, checkCallbackUrl },
  );

  const app = await buildApp({
    services: { keys, projects, jobs, runs },
    logger,
    ids: resources.ids,
    rateLimiter: new RateLimiter(config['limits.requests_per_minute'], clock),
  });

  let closing: Promise<void> | null = null;
  return {
    resources,
    orgs,
    keys,
    runs,
    app,
    async start() {
      const address = await app.listen({ host: config['server.host'], port: config['server.port'] });
      const port = (app.server.address() as { port: number }).port;
      if (config.public_url === null) publicUrl = `http://${hostForUrl(config['server.host'])}:${port}`;
      return address.startsWith('http://') ? `http://${hostForUrl(config['server.host'])}:${port}` : address;
    },
    close() {
      closing ??= (async () => {
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
