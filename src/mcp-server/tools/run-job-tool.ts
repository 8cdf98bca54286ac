import { PROFILE_NAME_PATTERN } from '../../runs/run-options.js';
import type { RunsService } from '../../runs/runs-service.js';
import { maxCostUsd } from '../../runs/run-options.js';
import type { McpTool } from './mcp-tool.js';
import type { RunWaiter } from './run-waiter.js';
import type { ActionSpace } from '../../vocabulary/action-spaces.js';
import { actionSpaceMember } from './action-space-member.js';
import { awaitStartedRun, waitSecondsSchema } from './started-run.js';

interface RunJobInput {
  job_id: string;
  inputs?: Record<string, unknown>;
  output_schema?: Record<string, unknown>;
  name?: string;
  idempotency_key?: string;
  replay?: 'auto' | 'off';
  max_cost_usd?: number;
  action_space?: ActionSpace;
  wait_seconds?: number;
}

export function runJobTool(deps: { runs: RunsService; waiter: RunWaiter; maxWaitS: number }): McpTool<RunJobInput> {
  return {
    name: 'run_job',
    title: 'Run a job',
    description: [
      'Runs a saved job (a task template from list_jobs) with the given inputs, and answers like run_task: the task',
      'envelope once the run ends, or its task_id and status when it takes longer than wait_seconds (then call get_run).',
      'inputs fill the job prompt\'s {{placeholders}}; the members the job\'s input_schema requires must be given.',
      'The envelope\'s mode says how the run went: replay (the job\'s recipe, recorded from an earlier run, was replayed with no model call),',
      'replay_then_agent (the agent took over where the page had changed), or agent.',
    ].join(' '),
    consent: { group: 'act', grants: 'run the organisation\'s saved jobs' },
    inputSchema: {
      type: 'object',
      additionalProperties: false,
      required: ['job_id'],
      properties: {
        job_id: { type: 'string', minLength: 1, maxLength: 128, description: 'The job_ id, from list_jobs.' },
        inputs: { type: 'object', additionalProperties: true, description: 'Values for the job prompt\'s {{placeholders}}, checked against the job\'s input_schema.' },
        output_schema: { type: 'object', additionalProperties: true, description: 'Overrides the job\'s output_schema for this run (a JSON Schema of type "object").' },
        name: { type: 'string', minLength: 1, maxLength: 200, description: 'A label for this run; by default the job\'s name.' },
        idempotency_key: {
          type: 'string',
          minLength: 1,
          maxLength: 255,
          description: 'Any unique string; calling again with the same key and arguments within 24 hours answers the same run instead of starting another.',
        },
        profile: {
          type: 'string',
          pattern: PROFILE_NAME_PATTERN,
          description: "A profile (saved login) from list_profiles that the run's browser starts signed in with; the run writes the site's renewed session back when it succeeds.",
        },
        replay: {
          type: 'string',
          enum: ['auto', 'off'],
          description: 'auto: replay the job\'s recorded recipe without the model, the agent taking over where the page changed; off: the agent does every step. Default: the job\'s replay setting.',
        },
        max_cost_usd: { ...maxCostUsd, description: 'The most the run may cost, in USD: the agent stops before a model call that could pass it, and the run fails with failure_code budget_exceeded (failure_reason timeout). Default: the job\'s, else the API key\'s, else none.' },
        action_space: { ...actionSpaceMember, description: `${actionSpaceMember.description} Default: the job's action_space.` },
        wait_seconds: waitSecondsSchema(deps.maxWaitS),
      },
    },
    annotations: { title: 'Run a job', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    async call(input, ctx) {
      const { job_id: jobId, wait_seconds: waitS, ...body } = input;
      const created = await deps.runs.createForJob(ctx.principal, jobId, body);
      return awaitStartedRun(deps.waiter, created, ctx, waitS ?? deps.maxWaitS);
    },
  };
}
