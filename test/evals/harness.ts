/**
 * What the eval suites share: a job that adds two numbers, a scripted model that answers it (rightly or not, by the
 * model the run asked for), the ten cases the check names, and what each of them should come to.
 */
import { roundUsd } from '../../src/billing/prices.js';
import { reply, toolUse, type AnthropicRequest, type AnthropicTurn } from '../fixtures/scripted-anthropic.js';
import type { TestDaemon } from '../fixtures/test-daemon.js';

export const ADDING_PROMPT = 'Add {{a}} and {{b}}.';
export const SUM_SCHEMA = { type: 'object', required: ['sum', 'note'], properties: { sum: { type: 'number' }, note: { type: 'string' } } };

/** The numbers `a` each model gets wrong (it answers a + b + 1). */
const MISTAKES: Record<string, readonly number[]> = { 'claude-sonnet-4-6': [3, 7], 'claude-opus-4-6': [2] };
/** Prices per million tokens (the defaults of src/vocabulary/models.ts). */
const PRICES: Record<string, { input: number; output: number }> = { sonnet: { input: 3, output: 15 }, opus: { input: 5, output: 25 } };

/** The tokens the scripted model reports for a case: each case costs its own. */
export function usageOf(a: number, b: number): { input_tokens: number; output_tokens: number } {
  return { input_tokens: 1000 + 10 * Math.abs(a), output_tokens: 100 + b };
}

export function costOf(model: 'sonnet' | 'opus', a: number, b: number): number {
  const u = usageOf(a, b);
  return roundUsd((u.input_tokens * PRICES[model]!.input + u.output_tokens * PRICES[model]!.output) / 1_000_000);
}

/**
 * The model's one turn of a run of the adding job: a negative `a` is not found; otherwise the sum (wrong for the
 * numbers its model gets wrong) and a sentence saying it.
 */
export const answer: AnthropicTurn = (request: AnthropicRequest) => {
  const m = /Add (-?\d+) and (-?\d+)\./.exec(JSON.stringify(request.body.messages));
  if (m === null) throw new Error('not a run of the adding job');
  const [a, b] = [Number(m[1]), Number(m[2])];
  const usage = usageOf(a, b);
  if (a < 0) return reply(toolUse('finish', { result: null, failure_reason: 'not_found', failure_detail: `There is no ${a} here.` }), { usage });
  const sum = (MISTAKES[request.body.model] ?? []).includes(a) ? a + b + 1 : a + b;
  return reply(toolUse('finish', { result: { sum, note: `the sum of ${a} and ${b} is ${sum}` }, confidence: 'high' }), { usage });
};

export interface Case {
  name?: string;
  inputs: { a: number; b: number };
  expect: Record<string, unknown>;
}

/** The ten cases: every matcher, a failure expected and met, a failure expected and not met, a nameless case. */
export const TEN_CASES: Case[] = [
  { name: 'two and two', inputs: { a: 2, b: 2 }, expect: { members: { sum: { equals: 4 } } } },
  { name: 'three and four', inputs: { a: 3, b: 4 }, expect: { members: { sum: { equals: 7 } } } },
  { name: 'whole result', inputs: { a: 1, b: 4 }, expect: { equals: { sum: 5, note: 'the sum of 1 and 4 is 5' } } },
  { name: 'contains', inputs: { a: 5, b: 5 }, expect: { members: { note: { contains: 'is 10' } } } },
  { name: 'pattern', inputs: { a: 6, b: 1 }, expect: { members: { note: { pattern: '^the sum of \\d+ and \\d+ is 7$' } } } },
  { name: 'range', inputs: { a: 7, b: 2 }, expect: { members: { sum: { range: { min: 8, max: 9.5 } } } } },
  { name: 'schema', inputs: { a: 8, b: 8 }, expect: { schema: { type: 'object', required: ['sum', 'note'], properties: { sum: { type: 'integer', minimum: 16 } } } } },
  { name: 'not found', inputs: { a: -1, b: 0 }, expect: { failure_reason: 'not_found' } },
  { name: 'expects a failure', inputs: { a: 9, b: 0 }, expect: { failure_reason: 'not_found' } },
  { inputs: { a: 4, b: 0 }, expect: { members: { sum: { equals: 4 }, note: { contains: 'sum' } } } },
];

/** The label of a case (its name, or its inputs as canonical JSON). */
export function labelOf(c: Case): string {
  return c.name ?? JSON.stringify(c.inputs);
}

/** Creates the adding job in the organisation's first project. */
export async function addingJob(d: TestDaemon, options: { key?: string; name?: string } = {}): Promise<string> {
  const key = options.key === undefined ? {} : { key: options.key };
  const project = (await d.api('GET', '/v1/projects', undefined, key)).body.data[0].id as string;
  const job = await d.api('POST', '/v1/jobs', { project_id: project, name: options.name ?? 'adding', prompt: ADDING_PROMPT, output_schema: SUM_SCHEMA }, key);
  if (job.status !== 201) throw new Error(`POST /v1/jobs answered ${job.status}: ${JSON.stringify(job.body)}`);
  return job.body.id as string;
}

/** Polls the eval until it has ended (completed or cancelled). */
export async function evalEnded(d: TestDaemon, evalId: string, key?: string, timeoutMs = 90_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await d.api('GET', `/v1/evals/${evalId}`, undefined, key === undefined ? {} : { key });
    if (res.status === 200 && ['completed', 'cancelled'].includes(res.body.status)) return res.body;
    if (Date.now() > deadline) throw new Error(`eval ${evalId} did not end in time; last seen:\n${JSON.stringify(res.body, null, 2)}\n${d.logs().slice(-4000)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
