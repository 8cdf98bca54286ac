import { NotFoundError } from '../errors.js';
import type { Resources } from '../resources.js';
import type { ScreenshotLinker } from '../runs/envelope.js';
import type { StepRow } from '../store/steps-store.js';

export interface RunStep {
  id: string;
  object: 'run_step';
  run_id: string;
  attempt: number;
  seq: number;
  /** `person`: a person's control of the browser through the live view. */
  kind: 'model' | 'tool' | 'person';
  name: string;
  input: unknown;
  output: string | null;
  is_error: boolean;
  duration_ms: number;
  usage: { input_tokens: number; output_tokens: number; cost_usd: number };
  screenshot_url: string | null;
  created_at: string;
}

export interface StepList {
  object: 'list';
  data: RunStep[];
  has_more: false;
  next_cursor: null;
}

/** What a run's agent did, for `GET /v1/runs/{id}/steps`. A run has a bounded number of steps, so one page holds them. */
export class StepsService {
  constructor(
    private readonly r: Resources,
    private readonly linkScreenshot: ScreenshotLinker,
  ) {}

  list(orgId: string, runId: string): StepList {
    if (!this.r.store.runs.get(orgId, runId)) throw new NotFoundError('run', runId);
    return { object: 'list', data: this.r.store.steps.forRun(runId).map((row) => toRunStep(row, this.linkScreenshot)), has_more: false, next_cursor: null };
  }
}

/** A step row as the API shows it (the steps list, and the `run.step` event). */
export function toRunStep(row: StepRow, linkScreenshot: ScreenshotLinker): RunStep {
  return {
    id: row.id,
    object: 'run_step',
    run_id: row.run_id,
    attempt: row.attempt,
    seq: row.seq,
    kind: row.kind,
    name: row.name,
    input: row.input === null ? null : JSON.parse(row.input),
    output: row.output,
    is_error: row.is_error === 1,
    duration_ms: row.duration_ms,
    usage: { input_tokens: row.input_tokens, output_tokens: row.output_tokens, cost_usd: row.cost_usd },
    screenshot_url: row.artifact_id === null ? null : linkScreenshot(row.artifact_id),
    created_at: row.created_at,
  };
}
