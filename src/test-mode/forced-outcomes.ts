import type { HumanAsk } from '../human/human-requests.js';
import type { FailureReason } from '../vocabulary/run-outcomes.js';

/**
 * What a test-mode run does, forced like Stripe's test cards (issue 25; docs/api.md, Test mode): the token
 * `errand_test=<outcome>` anywhere in the run's prompt (as filled from its inputs) or in any string among its inputs.
 * Inputs carry it through every way a run starts (POST /v1/runs, a job's runs, the MCP tools run_task and run_job)
 * and whatever a job's input_schema allows: `https://shop.example/?errand_test=captcha` is still a URL.
 */
export type ForcedOutcome =
  | { kind: 'succeed'; confidence: 'high' | 'medium' | 'low' }
  | { kind: 'fail'; reason: FailureReason; detail: string }
  | { kind: 'slow'; seconds: number; asked: number }
  | { kind: 'human'; ask: HumanAsk }
  | { kind: 'invalid_output' };

export const TEST_TOKEN = 'errand_test';
/** A slow run without a number of seconds. */
export const DEFAULT_SLOW_S = 10;
/**
 * The longest a slow run waits: enough to watch a run take its time (poll it, cancel it, see a shorter timeout_s
 * stop it), short enough that free test traffic never holds even its own slots (limits.max_concurrent_test_runs) for
 * long. A longer wait is cut to this, with a warning on the run.
 */
export const MAX_SLOW_S = 60;

/** Every failure, with the failure_detail it ends with: each of the spec's failure reasons can be forced. */
export const FORCED_FAILURES: Readonly<Record<FailureReason, string>> = {
  captcha: 'test mode (errand_test=captcha): a captcha blocked the page and nobody solved it',
  auth_required: 'test mode (errand_test=auth_required): the site asked for a login the run has no connection for',
  site_down: 'test mode (errand_test=site_down): the site did not answer',
  timeout: 'test mode (errand_test=timeout): stopped at the time limit, as a live run stops at its timeout_s',
  not_found: 'test mode (errand_test=not_found): what the task asks for is not on the site',
  ambiguous: 'test mode (errand_test=ambiguous): the page allowed more than one answer and none could be chosen',
};

/** The person a run asks for, by outcome name: answered through POST /v1/runs/{id}/human as live. */
const HUMAN_ASKS: Readonly<Record<string, HumanAsk>> = {
  needs_human: { kind: 'answer', question: 'Test mode (errand_test=needs_human): which option should the run choose?', obstacle: null },
  needs_approval: { kind: 'approve', question: 'Test mode (errand_test=needs_approval): may the run submit the order for 0.00 USD?', obstacle: null },
  needs_takeover: { kind: 'takeover', question: 'Test mode (errand_test=needs_takeover): please solve the captcha on the page, then hand back.', obstacle: 'captcha' },
};

/** Every outcome name the token takes, as docs/api.md lists them (`slow` also as `slow_<seconds>`). */
export const FORCED_OUTCOME_NAMES: readonly string[] = [
  'success',
  'low_confidence',
  'medium_confidence',
  ...Object.keys(FORCED_FAILURES),
  'slow',
  ...Object.keys(HUMAN_ASKS),
  'invalid_output',
];

const TOKEN_PATTERN = new RegExp(`\\b${TEST_TOKEN}=([a-z_]+?)(?:_(\\d+))?(?![a-z_\\d])`, 'g');

export interface ForcedReading {
  /** The first token's outcome that names one; a plain success when none does. */
  outcome: ForcedOutcome;
  /** The tokens that name no outcome, as written (`errand_test=captha`): a typo the caller should hear of. */
  unknown: string[];
}

/** The outcome a run's prompt and inputs force, and the tokens among them that name none. */
export function forcedOutcome(prompt: string, inputs: unknown): ForcedReading {
  let outcome: ForcedOutcome | null = null;
  const unknown: string[] = [];
  for (const text of [prompt, ...strings(inputs)]) {
    for (const m of text.matchAll(TOKEN_PATTERN)) {
      const named = outcomeNamed(m[1]!, m[2]);
      if (named === null) unknown.push(m[0]);
      else outcome ??= named;
    }
  }
  return { outcome: outcome ?? { kind: 'succeed', confidence: 'high' }, unknown: [...new Set(unknown)] };
}

/** The run's warning for a token that names no outcome. */
export function unknownTokenWarning(token: string): string {
  return `test mode: ${token} names no outcome and was ignored; the outcomes are ${FORCED_OUTCOME_NAMES.join(', ')} and slow_<seconds>`;
}

/** The run's warning for a slow outcome that asked for more than the cap. */
export function slowCapWarning(asked: number): string {
  return `test mode: errand_test=slow_${asked} asks for ${asked} s; a test-mode run waits at most ${MAX_SLOW_S} s, so this one waited ${MAX_SLOW_S} s`;
}

function outcomeNamed(name: string, number: string | undefined): ForcedOutcome | null {
  if (name === 'slow') {
    const asked = number === undefined ? DEFAULT_SLOW_S : Number(number);
    return asked >= 1 ? { kind: 'slow', seconds: Math.min(asked, MAX_SLOW_S), asked } : null;
  }
  if (number !== undefined) return null;
  if (name === 'success') return { kind: 'succeed', confidence: 'high' };
  if (name === 'low_confidence') return { kind: 'succeed', confidence: 'low' };
  if (name === 'medium_confidence') return { kind: 'succeed', confidence: 'medium' };
  if (name === 'invalid_output') return { kind: 'invalid_output' };
  if (name in FORCED_FAILURES) return { kind: 'fail', reason: name as FailureReason, detail: FORCED_FAILURES[name as FailureReason] };
  const ask = HUMAN_ASKS[name];
  return ask === undefined ? null : { kind: 'human', ask };
}

/** Every string among a JSON value's members, depth first, in their order. */
function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (typeof value === 'object' && value !== null) return Object.values(value).flatMap(strings);
  return [];
}
