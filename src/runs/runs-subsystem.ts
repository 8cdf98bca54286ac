import type { SpendCaps } from '../billing/caps.js';
import type { PriceTable } from '../billing/prices.js';
import type { EventAnnouncer } from '../event-log/event-announcer.js';
import type { JobsService } from '../jobs/jobs-service.js';
import type { ProjectsService } from '../projects/projects-service.js';
import type { Resources } from '../resources.js';
import type { Subsystem } from '../subsystem.js';
import { runEndEvents } from './run-end-events.js';
import { RunsService, type RunsServiceOptions } from './runs-service.js';
import type { UserSchemas } from './user-schemas.js';

export interface RunsSubsystemDeps extends RunsServiceOptions {
  resources: Resources;
  projects: ProjectsService;
  jobs: JobsService;
  schemas: UserSchemas;
  caps: SpendCaps;
  prices: PriceTable;
  announcer: EventAnnouncer;
}

/**
 * Runs: admission, the one way their status changes, their envelopes, and the announcement of their end with its
 * final envelope, in the unit of work of the terminal transition. The engine and the features plug into it
 * (`useEngine`, `useLiveLinks`, `addTransitionHook`) as their own factories build them.
 */
export function runsSubsystem(deps: RunsSubsystemDeps): Subsystem<{ runs: RunsService }> {
  const { resources, projects, jobs, schemas, caps, prices, announcer, ...options } = deps;
  const runs: RunsService = new RunsService(resources, { projects, jobs, schemas, caps, prices, announcer }, options);
  runs.addTransitionHook(runEndEvents(announcer, (row) => runs.envelope(row)));
  return { name: 'runs', services: { runs } };
}
