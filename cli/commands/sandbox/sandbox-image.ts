import { loadConfig } from '../../../src/config/load.js';

/** The sandbox image this data directory's daemon would use (`sandbox.image`). */
export function configuredSandboxImage(home: string, env: NodeJS.ProcessEnv): string {
  return loadConfig({ home, env })['sandbox.image'];
}
