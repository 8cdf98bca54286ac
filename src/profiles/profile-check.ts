import { ConflictError } from '../errors.js';
import type { SandboxDriver } from '../sandbox/driver.js';
import { SandboxError } from '../sandbox/sandbox-error.js';
import type { LoginChecker } from './profiles-service.js';

/** A check on demand starts a sandbox, loads a page and waits a moment: this is plenty, and no caller waits longer. */
const CHECK_TIMEOUT_MS = 90_000;

/**
 * `errand profiles check`: the profile's state loaded into the browser of a sandbox of its own (a pooled one when
 * the pool has one), its check's page looked at, the sandbox removed. With several sandbox hosts it takes a host's
 * room like a run, and is refused when none has any.
 */
export function sandboxLoginChecker(driver: SandboxDriver): LoginChecker {
  return async (profile, state, check) => {
    const slot = driver.placement === undefined ? undefined : driver.placement.reserve(null);
    if (slot === null) throw new ConflictError('no_sandbox_room', 'no sandbox host has room for a check now: try again when a run has ended');
    const signal = AbortSignal.timeout(CHECK_TIMEOUT_MS);
    try {
      const sandbox = await driver.create({ runId: `check_${profile.id}`, env: {}, signal, ...(slot === undefined ? {} : { slot }) });
      try {
        await sandbox.useLogin({ name: profile.name, state }, signal);
        return await sandbox.checkLogin(check, signal);
      } finally {
        await sandbox.destroy();
      }
    } catch (error) {
      if (error instanceof SandboxError || signal.aborted) throw new ConflictError('check_failed', `the check could not be made: ${error instanceof Error ? error.message : String(error)}`);
      throw error;
    } finally {
      slot?.release();
    }
  };
}
