import type { Db } from './database.js';

/** One model call or tool call of a run. `input` is JSON text; `output` is truncated text. */
export interface StepRow {
  id: string;
  run_id: string;
  attempt: number;
  seq: number;
  /** `person`: a person's control of the browser through the live view. */
  kind: 'model' | 'tool' | 'person';
  name: string;
  input: string | null;
  output: string | null;
  is_error: number;
  duration_ms: number;
  input_tokens: number;
  output_tokens: number;
  cost_usd: number;
  artifact_id: string | null;
  created_at: string;
}

export class StepsStore {
  private readonly s;

  constructor(db: Db) {
    this.s = {
      insert: db.prepare(
        `INSERT INTO run_steps (id, run_id, attempt, seq, kind, name, input, output, is_error, duration_ms, input_tokens, output_tokens, cost_usd, artifact_id, created_at)
         VALUES (@id, @run_id, @attempt, @seq, @kind, @name, @input, @output, @is_error, @duration_ms, @input_tokens, @output_tokens, @cost_usd, @artifact_id, @created_at)`,
      ),
      forRun: db.prepare<{ run_id: string }, StepRow>('SELECT * FROM run_steps WHERE run_id = @run_id ORDER BY attempt, seq'),
      count: db.prepare<{ run_id: string }, { n: number }>('SELECT COUNT(*) AS n FROM run_steps WHERE run_id = @run_id'),
    };
  }

  insert(row: StepRow): void {
    this.s.insert.run(row);
  }

  /** Every step of a run, attempt by attempt, in the order they happened. */
  forRun(runId: string): StepRow[] {
    return this.s.forRun.all({ run_id: runId });
  }

  countForRun(runId: string): number {
    return this.s.count.get({ run_id: runId })?.n ?? 0;
  }
}
