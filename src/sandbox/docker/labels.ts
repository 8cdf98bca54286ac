import type { ProcessIdentity } from '../../runtime/process-identity.js';

/** Every image and container Errand makes carries this label, so that they can be found and cleaned up. */
export const SANDBOX_LABEL = 'errand.sandbox';
/** The installation (see `runtime/installation-id.ts`) whose daemon started a container. */
export const INSTALLATION_LABEL = 'errand.installation';
/** The daemon instance (one driver's lifetime) that started a container. */
export const DAEMON_LABEL = 'errand.daemon';
/** The daemon process, named so that a later daemon can prove it dead (see `runtime/process-identity.ts`). */
export const BOOT_LABEL = 'errand.boot';
export const PID_NAMESPACE_LABEL = 'errand.pidns';
export const PID_LABEL = 'errand.pid';
export const START_TIME_LABEL = 'errand.pid-start';
/** The run a cold container was started for; pooled containers get their run through their name instead. */
export const RUN_LABEL = 'errand.run';
/** Set on containers started for the warm pool. */
export const POOL_LABEL = 'errand.pool';

export function processLabels(identity: ProcessIdentity | null): Record<string, string> {
  if (identity === null) return {};
  return {
    [BOOT_LABEL]: identity.bootId,
    [PID_NAMESPACE_LABEL]: identity.pidNamespace,
    [PID_LABEL]: String(identity.pid),
    [START_TIME_LABEL]: identity.startTime,
  };
}

/** The daemon process a container's labels name, or null when they name none completely. */
export function processFromLabels(labels: Record<string, string>): ProcessIdentity | null {
  const bootId = labels[BOOT_LABEL];
  const pidNamespace = labels[PID_NAMESPACE_LABEL];
  const pid = Number(labels[PID_LABEL]);
  const startTime = labels[START_TIME_LABEL];
  if (bootId === undefined || pidNamespace === undefined || startTime === undefined || !Number.isSafeInteger(pid)) return null;
  return { bootId, pidNamespace, pid, startTime };
}
