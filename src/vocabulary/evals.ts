/** An eval's statuses (docs/api.md, Evaluations); the moves between them are `evals/eval-lifecycle.ts`'s. */
export const EVAL_STATUSES = ['queued', 'running', 'completed', 'cancelled'] as const;
export type EvalStatus = (typeof EVAL_STATUSES)[number];

/** How a case of an eval ended: its run graded as passing or failing, no run made (error), or none made since the eval was cancelled. */
export const CASE_OUTCOMES = ['passed', 'failed', 'error', 'skipped'] as const;
export type CaseOutcome = (typeof CASE_OUTCOMES)[number];

/** A case's status as the API shows it: waiting for its run, its run under way, or how it ended. */
export const CASE_STATUSES = ['pending', 'running', ...CASE_OUTCOMES] as const;
export type CaseStatus = (typeof CASE_STATUSES)[number];
