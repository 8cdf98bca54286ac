import type { Logger } from 'pino';
import type { Config } from '../config/schema.js';
import type { Subsystem } from '../subsystem.js';
import { MetricsServer } from './metrics-server.js';
import { Metrics, type WatchedQueues } from './metrics.js';
import type { Resources } from '../resources.js';

export interface MetricsSubsystemDeps extends WatchedQueues {
  /** Built before every part that reports to it; null when `metrics.port` is not set. */
  metrics: Metrics | null;
  config: Pick<Config, 'metrics.host' | 'metrics.port'>;
  logger: Logger;
}

/** The registry the parts report to, built before them; none unless `metrics.port` is set. */
export function metricsRegistry(resources: Pick<Resources, 'config' | 'store' | 'events'>): Metrics | null {
  return resources.config['metrics.port'] === null ? null : new Metrics({ store: resources.store, events: resources.events });
}

/** `GET /metrics` on a listener of its own, and the gauges of the queues, when `metrics.port` is set. */
export function metricsSubsystem(deps: MetricsSubsystemDeps): Subsystem {
  const { metrics, config } = deps;
  const port = config['metrics.port'];
  if (metrics === null || port === null) return { name: 'metrics', services: {} };
  metrics.watch({ sandboxes: deps.sandboxes, mailQueue: deps.mailQueue });
  const server = new MetricsServer(metrics, deps.logger.child({ component: 'metrics' }));
  return {
    name: 'metrics',
    services: {},
    async start() {
      await server.listen(config['metrics.host'], port);
    },
    async close() {
      await server.close();
      metrics.close();
    },
  };
}
