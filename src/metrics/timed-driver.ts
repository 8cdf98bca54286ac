import type { Sandbox, SandboxCreateOptions, SandboxDriver } from '../sandbox/driver.js';

/** A sandbox driver that reports how long each `create` took (metrics); otherwise the driver itself. */
export function timedDriver(driver: SandboxDriver, observe: (driver: string, seconds: number) => void): SandboxDriver {
  return {
    get name() {
      return driver.name;
    },
    get warmCount() {
      return driver.warmCount;
    },
    async create(options: SandboxCreateOptions): Promise<Sandbox> {
      const started = performance.now();
      const sandbox = await driver.create(options);
      observe(driver.name, (performance.now() - started) / 1000);
      return sandbox;
    },
    report: () => driver.report(),
    removeOrphans: () => driver.removeOrphans(),
    close: () => driver.close(),
  };
}
