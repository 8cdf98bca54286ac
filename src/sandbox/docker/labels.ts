import { createHash } from 'node:crypto';

/** Every image and container Errand makes carries this label, so that they can be found and cleaned up. */
export const SANDBOX_LABEL = 'errand.sandbox';
/** The daemon instance (one process lifetime) that started a container. */
export const DAEMON_LABEL = 'errand.daemon';
/** The data directory a container belongs to, hashed: orphans are only ever another instance's of the same home. */
export const HOME_LABEL = 'errand.home';
/** Host name and pid of the daemon process, so that containers of a process that died can be told apart. */
export const HOST_LABEL = 'errand.host';
export const PID_LABEL = 'errand.pid';
/** The run a cold container was started for; pooled containers get their run through their name instead. */
export const RUN_LABEL = 'errand.run';
/** Set on containers started for the warm pool. */
export const POOL_LABEL = 'errand.pool';

export function homeLabelValue(home: string): string {
  return createHash('sha256').update(home).digest('hex').slice(0, 16);
}
