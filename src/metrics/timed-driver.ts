import { LOCAL_HOST, type Sandbox, type SandboxCreateOptions, type SandboxDriver } from '../sandbox/driver.js';

/** A sandbox driver that reports how long each `create` took (metrics); otherwise the driver itself. */
export function timedDriver(driver: SandboxDriver, observe: (driver: string, host: string, seconds: number) => void): SandboxDriver {
  return {
    ...(driver.placement === undefined ? {} : { placement: driver.placement }),
    get name() {
      return driver.name;
    },
    get warmCount() {
      return driver.warmCount;
    },
    async create(options: SandboxCreateOptions): Promise<Sandbox> {
      const started = performance.now();
      const sandbox = await driver.create(options);
      observe(driver.name, options.slot?.host ?? LOCAL_HOST, (performance.now() - started) / 1000);
      return sandbox;
    },
    warmCountsByHost: () => driver.warmCountsByHost(),
    hasLabel: (label) => driver.hasLabel(label),
    report: () => driver.report(),
    removeOrphans: () => driver.removeOrphans(),
    close: () => driver.close(),
  };
}
