import { PROFILE_NAME_PATTERN } from '../../runs/run-options.js';
import { modelAliasSchema } from '../../vocabulary/models.js';
import type { CreateRunBody } from '../../runs/run-schemas.js';
import type { RunsService } from '../../runs/runs-service.js';
import { maxCostUsd } from '../../runs/run-options.js';
import type { McpTool } from './mcp-tool.js';
import type { RunWaiter } from './run-waiter.js';
import { actionSpaceMember } from './action-space-member.js';
import { awaitStartedRun, waitSecondsSchema } from './started-run.js';

/**
 * The REST body of a run, without what an assistant does not set (connections, timeout_s; files, since the front door
 * has no way to upload one: issue 23 leaves input files to the REST API and the CLI), and how long to wait.
 */
type RunTaskInput = Omit<CreateRunBody, 'connections' | 'timeout_s' | 'files'> & { wait_seconds?: number };

export function runTaskTool(deps: { runs: RunsService; waiter: RunWaiter; maxWaitS: number }): McpTool<RunTaskInput> {
  return {
    name: 'run_task',
    title: 'Run a task',
    description: [
      'Gives a task in plain language to an Errand agent, which works on it in its own sandbox with a web browser and',
      'a code interpreter (Python, Node.js, shell), and answers with the task envelope: status (succeeded, failed or',
      'cancelled), result (an object shaped by output_schema), confidence, evidence (the text it matched, a screenshot',
      'link), failure_reason when it failed, and usage with the billed cost in USD.',
      'Use it for work that needs the live web or running code: looking something up on a site, checking a page,',
      'extracting data, calculating. State the task fully in prompt; give output_schema when you need fields back.',
      'The call waits up to wait_seconds for the run; a longer run is answered with its task_id and status, and you',
      'get its result with get_run. Every run is billed to the signed-in organisation and counts against its caps.',
    ].join(' '),
    consent: { group: 'act', grants: 'start tasks, which an agent works on in a sandbox with a web browser and code' },
    inputSchema: {
      type: 'object',
      additionalProperties: false,
      required: ['prompt'],
      properties: {
        prompt: {
          type: 'string',
          minLength: 1,
          maxLength: 100_000,
          description: 'The task, in plain language, with everything the agent needs to know. May contain {{name}} placeholders filled from inputs.',
        },
        inputs: { type: 'object', additionalProperties: true, description: 'Values for the {{placeholders}} of prompt, by name.' },
        output_schema: {
          type: 'object',
          additionalProperties: true,
          description: 'A JSON Schema (type "object") that result must satisfy, e.g. {"type":"object","required":["price"],"properties":{"price":{"type":"number"}}}.',
        },
        model: { ...modelAliasSchema, description: 'The agent\'s model: haiku (fastest, cheapest), sonnet (the default), opus (hardest tasks, costliest).' },
        project_id: { type: 'string', minLength: 1, maxLength: 128, description: 'A proj_ id from list_projects; by default the "API Runs" project.' },
        name: { type: 'string', minLength: 1, maxLength: 200, description: 'A short label for the run, shown in run lists.' },
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
        callback_url: { type: 'string', format: 'uri', maxLength: 2048, description: 'An https URL that gets a signed webhook when the run ends. Rarely needed here.' },
        max_cost_usd: { ...maxCostUsd, description: 'The most the run may cost, in USD: the agent stops before a model call that could pass it, and the run fails with failure_code budget_exceeded (failure_reason timeout). Default: the API key\'s, else none.' },
        action_space: actionSpaceMember,
        wait_seconds: waitSecondsSchema(deps.maxWaitS),
      },
    },
    annotations: { title: 'Run a task', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    async call(input, ctx) {
      const { wait_seconds: waitS, ...body } = input;
      const created = await deps.runs.create(ctx.principal, body);
      return awaitStartedRun(deps.waiter, created, ctx, waitS ?? deps.maxWaitS);
    },
  };
}
