import type { EventAnnouncer } from '../event-log/event-announcer.js';
import type { EventLog } from '../event-log/event-log.js';
import type { JobsService } from '../jobs/jobs-service.js';
import type { Resources } from '../resources.js';
import type { Subsystem } from '../subsystem.js';
import { firingEvents } from './firing-events.js';
import { Scheduler, type ScheduledRunStarter } from './scheduler.js';
import { SkippedFirings } from './skipped-firings.js';

export interface SchedulesSubsystemDeps {
  resources: Resources;
  eventLog: EventLog;
  announcer: EventAnnouncer;
  jobs: JobsService;
  runs: ScheduledRunStarter;
}

/** Jobs' cron schedules, fired into runs; the firings that started none are kept for the API. */
export function schedulesSubsystem(deps: SchedulesSubsystemDeps): Subsystem<{ skippedFirings: SkippedFirings; scheduler: Scheduler }> {
  const { resources, eventLog, announcer, jobs } = deps;
  const { store, logger } = resources;
  const skippedFirings = new SkippedFirings({ store, eventLog, announcer, jobs });
  const scheduler = new Scheduler({
    jobs: store.jobs,
    runs: deps.runs,
    logger: logger.child({ component: 'scheduler' }),
    events: resources.events,
    onFiring: firingEvents(store, announcer),
    recordSkipped: (orgId, jobId, slot, error) => skippedFirings.record(orgId, jobId, slot, error),
  });
  return {
    name: 'schedules',
    services: { skippedFirings, scheduler },
    start: () => scheduler.start(),
    close: () => scheduler.close(),
  };
}
