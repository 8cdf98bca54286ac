import { setTimeout as sleep } from 'node:timers/promises';
import type { ArtifactsService } from '../artifacts/artifacts-service.js';
import { isoTime } from '../clock.js';
import type { RunConnections } from '../connections/run-connections.js';
import type { PriceTable } from '../billing/prices.js';
import { answerText } from '../human/request-human-tool.js';
import type { HumanRequests } from '../human/human-requests.js';
import type { Resources } from '../resources.js';
import { failedOutcome, type RunOutcome } from '../runs/run-outcome.js';
import type { RunsService } from '../runs/runs-service.js';
import type { UserSchemas } from '../runs/user-schemas.js';
import type { StoredEvidence } from '../runs/envelope.js';
import type { RunRow } from '../store/runs-table.js';
import { fromJson } from '../store/json-columns.js';
import { problemsDetail, runProblems } from '../runs/run-problems.js';
import { RunRecorder, type StepEvents } from '../steps/run-recorder.js';
import { TimeoutStop } from '../runs/run-stop.js';
import { RunTimer } from '../runs/run-time-limit.js';
import { forcedOutcome, MAX_SLOW_S, slowCapWarning, unknownTokenWarning, type ForcedOutcome } from './forced-outcomes.js';
import { generatedResult } from './generated-result.js';
import { PLACEHOLDER_TEXT, PLACEHOLDER_URL } from './placeholder-page.js';

export interface TestModeRunnerDeps {
  runs: RunsService;
  artifacts: ArtifactsService;
  prices: PriceTable;
  stepEvents: StepEvents;
  human: Pick<HumanRequests, 'ask'>;
  schemas: Pick<UserSchemas, 'validate'>;
  connections: RunConnections;
  /** The placeholder page's screenshot (placeholder-page.ts). */
  screenshot: () => Buffer;
}

/** What a test-mode run's `run.status` says of its success: no agent made the result. */
const TEST_MODE_RESULT = 'test mode: a result generated from the output_schema, with no agent, model or browser';

/**
 * Carries out a claimed run of a test-mode organisation (issue 25; docs/api.md, Test mode): no model call, no
 * sandbox, no browser. It records the steps a short live run records (real step rows, `run.step` events), keeps the
 * placeholder page's screenshot as its evidence, and ends the way the run's `errand_test=` token forces, or with a
 * result generated from its output_schema. Everything around it is the live engine's: the dispatcher's claim and
 * lease, cancel, `timeout_s`, a person's answer through POST /v1/runs/{id}/human, the moves that end the run and
 * their events and webhooks. Its steps cost nothing, so nothing is spent against the caps.
 */
export class TestModeRunner {
  constructor(
    private readonly r: Resources,
    private readonly deps: TestModeRunnerDeps,
  ) {}

  async execute(run: RunRow, controller: AbortController): Promise<void> {
    const logger = this.r.logger.child({ runId: run.id, attempt: run.attempt, mode: 'test' });
    const timer = new RunTimer(run.timeout_s * 1000, () => controller.abort(new TimeoutStop(run.timeout_s)));
    let outcome: RunOutcome | null;
    try {
      outcome = this.precheck(run) ?? (await this.attempt(run, controller.signal, timer));
    } catch (err) {
      const reason: unknown = controller.signal.reason;
      if (controller.signal.aborted && reason instanceof TimeoutStop) outcome = failedOutcome('timeout', reason.detail);
      else if (controller.signal.aborted) outcome = null; // cancelled, shutting down or lease lost: as a live attempt
      else {
        logger.error({ err }, 'test-mode run failed on an unexpected error');
        outcome = failedOutcome('site_down', 'the engine failed unexpectedly while running this test-mode task; the daemon log has the details under this run id');
      }
    } finally {
      timer.stop();
    }
    if (outcome !== null) await this.deps.runs.endAttempt(run, outcome);
    logger.info({ outcome: outcome?.status ?? 'stopped' }, 'test-mode run attempt ended');
  }

  /** A connection the run names that its organisation lacks fails it as live (test mode has no model to miss). */
  private precheck(run: RunRow): RunOutcome | null {
    const problems = runProblems(null, this.deps.connections, {
      orgId: run.org_id,
      projectId: run.project_id,
      connections: fromJson<string[]>(run.connections) ?? [],
      proxy: run.proxy,
    });
    return problems.length === 0 ? null : failedOutcome('auth_required', problemsDetail(problems));
  }

  private async attempt(run: RunRow, signal: AbortSignal, timer: RunTimer): Promise<RunOutcome> {
    const recorder = new RunRecorder(this.r, this.deps.prices, run, run.attempt, this.deps.stepEvents);
    const inputs = fromJson<Record<string, unknown>>(run.inputs);
    const { outcome: forced, unknown } = forcedOutcome(run.prompt, inputs);
    recorder.lastAction(`opening ${PLACEHOLDER_URL}`);
    recorder.toolCall({ name: 'browser', input: { action: 'navigate', url: PLACEHOLDER_URL }, output: `test mode: no browser was started; the placeholder page stands for ${PLACEHOLDER_URL}`, isError: false, durationMs: 0 });
    await this.wait(run, forced, recorder, signal);
    const shot = await this.deps.artifacts.saveScreenshot(run.org_id, run.id, this.deps.screenshot(), this.r.clock.now());
    recorder.toolCall({ name: 'browser', input: { action: 'screenshot' }, output: 'test mode: the placeholder page', isError: false, durationMs: 0, artifactId: shot.id });
    const evidence: StoredEvidence = { artifact_id: shot.id, matched_text: PLACEHOLDER_TEXT, checked_at: isoTime(this.r.clock.now()) };
    const ended = await this.ending(run, forced, inputs, evidence, recorder, signal, timer);
    const capped = forced.kind === 'slow' && forced.asked > forced.seconds ? [slowCapWarning(forced.asked)] : [];
    const outcome = { ...ended, warnings: [...unknown.map(unknownTokenWarning), ...capped, ...ended.warnings] };
    recorder.toolCall({ name: 'finish', input: { forced: describeForced(forced) }, output: outcome.status === 'succeeded' ? 'succeeded' : `failed: ${outcome.reason}`, isError: false, durationMs: 0 });
    return outcome;
  }

  /** A slow run waits (cancel and timeout_s stop it as they stop a live one); others go on at once. */
  private async wait(run: RunRow, forced: ForcedOutcome, recorder: RunRecorder, signal: AbortSignal): Promise<void> {
    if (forced.kind !== 'slow') return;
    const cap = forced.asked > forced.seconds ? `; it asked for ${forced.asked} s, and ${MAX_SLOW_S} s is the most a test-mode run waits` : '';
    recorder.lastAction(`test mode: working slowly for ${forced.seconds} s (errand_test=slow${cap})`);
    await sleep(forced.seconds * 1000, undefined, { signal });
    recorder.toolCall({ name: 'browser', input: { action: 'wait', seconds: forced.seconds }, output: `test mode: waited ${forced.seconds} s (errand_test=slow)`, isError: false, durationMs: forced.seconds * 1000 });
  }

  private async ending(run: RunRow, forced: ForcedOutcome, inputs: unknown, evidence: StoredEvidence, recorder: RunRecorder, signal: AbortSignal, timer: RunTimer): Promise<RunOutcome> {
    if (forced.kind === 'fail') return failedOutcome(forced.reason, forced.detail, { evidence, confidence: 'high' });
    if (forced.kind === 'human') {
      recorder.lastAction(`waiting for a person (${forced.ask.kind})`);
      // As request_human: the wait has its own limit (human_timeout_s), and the run's timeout_s stops meanwhile.
      const reply = await this.deps.human.ask(run, forced.ask, { signal, timeLimit: timer });
      if (reply.kind === 'expired') return reply.outcome;
      recorder.toolCall({ name: 'request_human', input: forced.ask, output: answerText(reply.request), isError: false, durationMs: 0 });
      if (reply.request.kind === 'approve' && reply.request.approved !== 1) {
        return failedOutcome('ambiguous', 'test mode (errand_test=needs_approval): the person denied the approval, so the run did not go ahead', { evidence, confidence: 'high' });
      }
    }
    const generated = await generatedResult({ prompt: run.prompt, inputs, outputSchema: fromJson<Record<string, unknown>>(run.output_schema) }, this.deps.schemas);
    if (forced.kind === 'invalid_output') {
      // As a live run whose agent's result still broke the schema after its one repair: kept, with warnings.
      const result = { ...generated.result, errand_test: 'invalid_output' };
      return { status: 'succeeded', result, confidence: 'low', evidence, describedAs: TEST_MODE_RESULT, warnings: ['output_schema: test mode (errand_test=invalid_output): the result does not satisfy output_schema'] };
    }
    const warnings = generated.errors.map((e) => `output_schema: test mode could not generate a result this schema accepts: ${e}`);
    const confidence = warnings.length > 0 ? 'low' : forced.kind === 'succeed' ? forced.confidence : 'high';
    return { status: 'succeeded', result: generated.result, confidence, evidence, warnings, describedAs: TEST_MODE_RESULT };
  }
}

function describeForced(forced: ForcedOutcome): string {
  switch (forced.kind) {
    case 'succeed':
      return forced.confidence === 'high' ? 'success' : `${forced.confidence}_confidence`;
    case 'fail':
      return forced.reason;
    case 'slow':
      return `slow_${forced.seconds}`;
    case 'human':
      return `human_${forced.ask.kind}`;
    case 'invalid_output':
      return 'invalid_output';
    default: {
      const never: never = forced;
      throw new Error(`unknown forced outcome ${String(never)}`);
    }
  }
}
