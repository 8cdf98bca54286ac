import type { FastifyInstance } from 'fastify';
import type { Config } from '../src/config/schema.js';
import type { PublicAddress } from '../src/runtime/public-address.js';
import type { Subsystem } from '../src/subsystem.js';
import { buildApp, type AppDeps } from './app.js';
import { httpTimeouts, type HttpTimeoutKeys } from './http-timeouts.js';

export interface HttpSubsystemDeps {
  app: Omit<AppDeps, 'timeouts'>;
  config: Pick<Config, 'server.host' | 'server.port' | HttpTimeoutKeys>;
  /** Learns the port once the API listens (`--port 0`). */
  address: PublicAddress;
}

export interface HttpServices {
  app: FastifyInstance;
  /** The address the API listens on, once it does. */
  url(): string | null;
}

/** The HTTP API: listens when started; on close, stops taking requests and drains those in flight. */
export async function httpSubsystem(deps: HttpSubsystemDeps): Promise<Subsystem<HttpServices>> {
  const { config, address } = deps;
  const app = await buildApp({ ...deps.app, timeouts: httpTimeouts(config) });
  let url: string | null = null;
  return {
    name: 'http',
    services: { app, url: () => url },
    async start() {
      await app.listen({ host: config['server.host'], port: config['server.port'] });
      url = address.listening(config['server.host'], (app.server.address() as { port: number }).port);
    },
    close: () => app.close(),
  };
}
