import type { Resources } from '../resources.js';
import type { RunsService } from '../runs/runs-service.js';
import type { Subsystem } from '../subsystem.js';
import { Waitpoints } from './waitpoints.js';

/** What running runs wait for: a run that leaves `running` abandons its attempt's waitpoints (a transition hook). */
export function waitpointsSubsystem(deps: { resources: Resources; runs: RunsService }): Subsystem<{ waitpoints: Waitpoints }> {
  const waitpoints = new Waitpoints(deps.resources, { runs: deps.runs });
  deps.runs.addTransitionHook(waitpoints.endHook);
  return { name: 'waitpoints', services: { waitpoints } };
}
