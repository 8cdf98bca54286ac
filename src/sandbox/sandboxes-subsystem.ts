import type { Logger } from 'pino';
import type { Config } from '../config/schema.js';
import type { Metrics } from '../metrics/metrics.js';
import { timedDriver } from '../metrics/timed-driver.js';
import type { Subsystem } from '../subsystem.js';
import type { SandboxDriver } from './driver.js';
import { selectDriver } from './select-driver.js';

export interface SandboxesSubsystemDeps {
  config: Config;
  home: string;
  logger: Logger;
  /** Told how long each sandbox took to get, when metrics are on. */
  metrics: Metrics | null;
}

/** The sandbox driver `sandbox.driver` selects (a docker driver starts its warm pool as it is selected). */
export async function sandboxesSubsystem(deps: SandboxesSubsystemDeps): Promise<Subsystem<{ driver: SandboxDriver }>> {
  const { metrics } = deps;
  const selected = await selectDriver({ config: deps.config, home: deps.home, logger: deps.logger });
  const driver: SandboxDriver = metrics ? timedDriver(selected, (name, host, seconds) => metrics.sandboxStarted(name, host, seconds)) : selected;
  return { name: 'sandboxes', services: { driver }, close: () => driver.close() };
}
