import type { ArtifactsService } from '../src/artifacts/artifacts-service.js';
import type { EventStreams } from '../src/event-log/event-streams.js';
import type { JobsService } from '../src/jobs/jobs-service.js';
import type { KeysService } from '../src/keys/keys-service.js';
import type { RateLimiter } from '../src/keys/rate-limiter.js';
import type { ProjectsService } from '../src/projects/projects-service.js';
import type { RunsService } from '../src/runs/runs-service.js';
import type { StatusService } from '../src/status/status-service.js';
import type { StepsService } from '../src/steps/steps-service.js';

/**
 * The domain services the HTTP layer calls; built once by `daemon/wiring.ts` (or a test) and handed to `buildApp`.
 * Every route plugin takes this object as its options and uses what it needs.
 */
export interface ApiServices {
  keys: KeysService;
  rateLimiter: RateLimiter;
  projects: ProjectsService;
  jobs: JobsService;
  runs: RunsService;
  steps: StepsService;
  artifacts: ArtifactsService;
  eventStreams: EventStreams;
  status: StatusService;
}
