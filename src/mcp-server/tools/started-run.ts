import type { RunEnvelope } from '../../runs/envelope.js';
import type { CreatedRun } from '../../runs/runs-service.js';
import { isTerminal } from '../../vocabulary/run-status.js';
import type { McpToolContext } from './mcp-tool.js';
import type { RunWaiter } from './run-waiter.js';

/** What `run_task` and `run_job` answer for a run that has not ended within the wait. */
export interface RunStillGoing {
  task_id: string;
  status: RunEnvelope['status'];
  poll_url: string;
  progress: RunEnvelope['progress'];
  /** How the run goes so far: the agent, or a replay of its job's recipe (issue 24). */
  mode: RunEnvelope['mode'];
  message: string;
}

/** The `wait_seconds` member shared by the tools that start runs. */
export function waitSecondsSchema(maxWaitS: number) {
  return {
    type: 'integer',
    minimum: 0,
    maximum: maxWaitS,
    description: `How long to wait for the run to end before answering with its task_id instead (0 answers at once). Default and maximum: ${maxWaitS}.`,
  } as const;
}

/**
 * Waits for a run the tool just started (or found by its idempotency key), reporting progress, and answers its
 * envelope once it ends, or how it stands when the wait is over.
 */
export async function awaitStartedRun(waiter: RunWaiter, created: CreatedRun, ctx: McpToolContext, waitS: number): Promise<RunEnvelope | RunStillGoing> {
  const runId = created.body.task_id;
  const envelope = await waiter.wait(ctx.principal.orgId, runId, {
    boundMs: waitS * 1000,
    signal: ctx.signal,
    onProgress: (e) => void ctx.progress(describe(e)).catch(() => undefined),
  });
  if (isTerminal(envelope.status)) return envelope;
  return {
    task_id: runId,
    status: envelope.status,
    poll_url: created.body.poll_url,
    progress: envelope.progress,
    mode: envelope.mode,
    message: `The run is still ${envelope.status}. Call get_run with task_id "${runId}" later to get its result, or cancel_run to stop it.`,
  };
}

function describe(e: RunEnvelope): string {
  const steps = `${e.progress.steps} step${e.progress.steps === 1 ? '' : 's'}`;
  const mode = e.mode === 'agent' ? '' : `, ${e.mode === 'replay' ? "replaying the job's recipe" : 'the agent took over a replay'}`;
  return `Run ${e.task_id} is ${e.status}${mode} (${steps}${e.progress.last_action ? `; last: ${e.progress.last_action}` : ''})`;
}
