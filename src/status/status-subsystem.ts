import type { ModelProvider } from '../engine/providers/provider.js';
import type { MailStatus } from '../mail/mail-status.js';
import { packageVersion } from '../package-root.js';
import type { Resources } from '../resources.js';
import type { SandboxDriver } from '../sandbox/driver.js';
import type { Subsystem } from '../subsystem.js';
import { StatusService } from './status-service.js';

/** GET /v1/status: what the daemon reports about itself, for errand doctor and the TUI. */
export function statusSubsystem(deps: { resources: Resources; provider: ModelProvider; driver: SandboxDriver; mailStatus: () => MailStatus }): Subsystem<{ status: StatusService }> {
  return { name: 'status', services: { status: new StatusService(deps.resources, { provider: deps.provider, driver: deps.driver, version: packageVersion(), mail: deps.mailStatus }) } };
}
