import type { JobsService } from '../src/jobs/jobs-service.js';
import type { KeysService } from '../src/keys/keys-service.js';
import type { ProjectsService } from '../src/projects/projects-service.js';
import type { RunsService } from '../src/runs/runs-service.js';

/** The domain services the HTTP layer calls; built once by `daemon/main.ts` (or a test) and handed to `buildApp`. */
export interface ApiServices {
  keys: KeysService;
  projects: ProjectsService;
  jobs: JobsService;
  runs: RunsService;
}
