import { resolve } from 'node:path';
import { loadConfig } from '../../../src/config/load.js';
import { ConfigError } from '../../../src/errors.js';
import { dataPaths } from '../../../src/runtime/paths.js';

/**
 * The daemon's log file on this data directory: `log.file` when the configuration sets it (a daemon run by a
 * service manager), else `<home>/errandd.log`, which `errand daemon start` gives the daemon. `configured` says which.
 * A configuration that does not load names no file: errandd itself then says what is wrong with it.
 */
export function daemonLogFile(home: string, env: NodeJS.ProcessEnv, flags: Record<string, unknown> = {}): { path: string; configured: boolean } {
  let configured: string | null;
  try {
    configured = loadConfig({ home, env, flags })['log.file'];
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    configured = null;
  }
  return configured === null ? { path: dataPaths(home).daemonLog, configured: false } : { path: resolve(home, configured), configured: true };
}
