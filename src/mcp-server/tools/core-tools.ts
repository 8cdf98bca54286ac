import type { JobsService } from '../../jobs/jobs-service.js';
import type { ProjectsService } from '../../projects/projects-service.js';
import type { RunsService } from '../../runs/runs-service.js';
import { cancelRunTool } from './cancel-run-tool.js';
import { getRunTool } from './get-run-tool.js';
import { listJobsTool } from './list-jobs-tool.js';
import { listProjectsTool } from './list-projects-tool.js';
import { listRunsTool } from './list-runs-tool.js';
import type { McpTool } from './mcp-tool.js';
import type { RunWaiter } from './run-waiter.js';
import { runJobTool } from './run-job-tool.js';
import { runTaskTool } from './run-task-tool.js';

export interface CoreToolDeps {
  runs: RunsService;
  jobs: JobsService;
  projects: ProjectsService;
  waiter: RunWaiter;
  /** The longest run_task and run_job wait for their run (`mcp.run_wait_s`). */
  maxWaitS: number;
}

/** The tools over runs, jobs and projects, in the order clients list them. */
export function coreTools(deps: CoreToolDeps): McpTool<any>[] {
  return [runTaskTool(deps), getRunTool(deps), listRunsTool(deps), cancelRunTool(deps), listJobsTool(deps), runJobTool(deps), listProjectsTool(deps)];
}
