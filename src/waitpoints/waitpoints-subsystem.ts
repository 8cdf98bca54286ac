import type { Resources } from '../resources.js';
import type { RunsService } from '../runs/runs-service.js';
import type { Subsystem } from '../subsystem.js';
import type { RunTracing } from '../tracing/run-tracing.js';
import { Waitpoints } from './waitpoints.js';

/** What running runs wait for: a run that leaves `running` abandons its attempt's waitpoints (a transition hook). */
export function waitpointsSubsystem(deps: { resources: Resources; runs: RunsService; tracing: RunTracing }): Subsystem<{ waitpoints: Waitpoints }> {
  const waitpoints = new Waitpoints(deps.resources, { runs: deps.runs, tracing: deps.tracing });
  deps.runs.addTransitionHook(waitpoints.endHook);
  return { name: 'waitpoints', services: { waitpoints } };
}
