import type { ScreenshotLinker } from '../runs/envelope.js';
import { roundUsd, type PriceTable } from '../billing/prices.js';
import { SecretMask } from '../connections/secret-mask.js';
import { isoTime } from '../clock.js';
import type { EventAnnouncer } from '../event-log/event-announcer.js';
import type { Resources } from '../resources.js';
import { toRunStep } from './steps-service.js';
import type { RunPatch, RunRow } from '../store/runs-table.js';
import type { StepRow } from '../store/steps-store.js';
import type { ModelAlias, ModelUsage } from '../vocabulary/models.js';
import { truncateEnd, truncateMiddle } from '../agent-tools/truncate.js';
import type { ToolRecorder, ToolStep } from '../agent-tools/agent-tool.js';

/** What a step row keeps of a tool's input and output: enough to see what the agent did, bounded per step. */
const STEP_INPUT_LIMIT = 8_000;
const STEP_OUTPUT_LIMIT = 4_000;
const LAST_ACTION_LIMIT = 200;

/** One stretch of a person's control of a run's browser, from taking it to handing it back: a step of its own. */
export interface Takeover {
  /** Who held control, as the live view knows them (`live link` or an API key's id). */
  by: string;
  startedAtMs: number;
  endedAtMs: number;
  /** What the person said they did, if anything. */
  note: string | null;
  /** Whether control ended by revocation rather than by the person handing it back. */
  revoked: boolean;
}

/** Where a recorder announces each step: the event log, with screenshots as signed links. */
export interface StepEvents {
  announcer: EventAnnouncer;
  linkScreenshot: ScreenshotLinker;
}

export interface ModelStep {
  modelId: string;
  input: unknown;
  output: string;
  durationMs: number;
  usage: ModelUsage;
}

/**
 * Writes what a run does as it happens: a step row per model and tool call, a spend entry per billed amount, the
 * run's usage and progress columns and the `run.step` event, each step in one transaction. Spend is recorded per call when the
 * call returns, never at the end of a run, so a run retried after a crash is charged only for the calls its new
 * attempt makes on top of those already recorded: nothing is charged twice, and a call cut off by the crash
 * (no answer, no usage) is not charged at all. What it writes passes the run's secret mask first, so no step or
 * progress line holds a secret of the run's connections, whichever tool produced it.
 */
export class RunRecorder implements ToolRecorder {
  private seq = 0;
  private stepCount: number;
  private inputTokens: number;
  private outputTokens: number;

  constructor(
    private readonly r: Resources,
    private readonly prices: PriceTable,
    private readonly run: RunRow,
    private readonly attempt: number,
    private readonly stepEvents: StepEvents,
    private readonly mask: SecretMask = SecretMask.none,
  ) {
    this.stepCount = r.store.steps.countForRun(run.id);
    this.inputTokens = run.input_tokens;
    this.outputTokens = run.output_tokens;
  }

  get model(): ModelAlias {
    return this.run.model as ModelAlias;
  }

  /** Shown in the envelope's progress while the action runs. */
  lastAction(text: string): void {
    this.r.store.runs.patch(this.run.id, 'running', { last_action: truncateEnd(this.mask.text(text), LAST_ACTION_LIMIT) });
  }

  /** Records one model call and charges it; returns what it cost. */
  modelCall(step: ModelStep): number {
    const usd = this.prices.tokensCost(this.model, step.usage.inputTokens, step.usage.outputTokens);
    this.inputTokens += step.usage.inputTokens;
    this.outputTokens += step.usage.outputTokens;
    this.write(
      {
        kind: 'model',
        name: step.modelId,
        input: step.input,
        output: step.output,
        isError: false,
        durationMs: step.durationMs,
        inputTokens: step.usage.inputTokens,
        outputTokens: step.usage.outputTokens,
        usd,
        artifactId: null,
      },
      { input_tokens: this.inputTokens, output_tokens: this.outputTokens },
    );
    return usd;
  }

  toolCall(step: ToolStep): void {
    this.write({
      kind: 'tool',
      name: step.name,
      input: step.input,
      output: step.output,
      isError: step.isError,
      durationMs: step.durationMs,
      inputTokens: 0,
      outputTokens: 0,
      usd: 0,
      artifactId: step.artifactId ?? null,
    });
  }

  /** A person's control of the browser (the live view's takeover): a step of kind `person`, who, when, how long. */
  takeover(t: Takeover): void {
    this.write({
      kind: 'person',
      name: 'takeover',
      input: { by: t.by, started_at: isoTime(t.startedAtMs), ended_at: isoTime(t.endedAtMs), revoked: t.revoked },
      output: t.note ?? '',
      isError: false,
      durationMs: t.endedAtMs - t.startedAtMs,
      inputTokens: 0,
      outputTokens: 0,
      usd: 0,
      artifactId: null,
    });
  }

  /** Charges sandbox time (no step row), in a transaction of its own; see SandboxMeter. */
  sandboxTime(seconds: number): void {
    this.r.store.transaction(() => {
      const costUsd = this.billSandbox(seconds);
      if (costUsd !== null) this.patchRun({ cost_usd: costUsd });
    });
  }

  /** What the run has been billed so far, over all its attempts. */
  spentUsd(): number {
    return roundUsd(this.r.store.spend.forRun(this.run.id));
  }

  /**
   * Records the spend of `seconds` of sandbox time inside the caller's transaction; answers the run's cost with it,
   * or null when nothing was due. A run with a max_cost_usd is not billed sandbox time past it: its model calls stop
   * before they could pass it, and the seconds a run takes to end after that are ours.
   */
  billSandbox(seconds: number): number | null {
    const { store } = this.r;
    const max = this.run.max_cost_usd;
    const usd = max === null ? this.prices.sandboxCost(seconds) : Math.min(this.prices.sandboxCost(seconds), roundUsd(max - this.spentUsd()));
    if (usd <= 0) return null;
    store.spend.record({ orgId: this.run.org_id, keyId: this.run.key_id, runId: this.run.id, usd, at: isoTime(this.r.clock.now()) });
    return roundUsd(store.spend.forRun(this.run.id));
  }

  private write(
    s: { kind: StepRow['kind']; name: string; input: unknown; output: string; isError: boolean; durationMs: number; inputTokens: number; outputTokens: number; usd: number; artifactId: string | null },
    usage: RunPatch = {},
  ): void {
    const { store } = this.r;
    const at = isoTime(this.r.clock.now());
    store.transaction((uow) => {
      this.seq += 1;
      this.stepCount += 1;
      const row: StepRow = {
        id: this.r.ids('step'),
        run_id: this.run.id,
        attempt: this.attempt,
        seq: this.seq,
        kind: s.kind,
        name: s.name,
        input: s.input === undefined ? null : truncateJson(this.mask.value(s.input)),
        // Masked before it is cut: a secret astride the cut would otherwise survive in part.
        output: truncateMiddle(this.mask.text(s.output), STEP_OUTPUT_LIMIT),
        is_error: s.isError ? 1 : 0,
        duration_ms: Math.round(s.durationMs),
        input_tokens: s.inputTokens,
        output_tokens: s.outputTokens,
        cost_usd: s.usd,
        artifact_id: s.artifactId,
        created_at: at,
      };
      store.steps.insert(row);
      if (s.usd > 0) store.spend.record({ orgId: this.run.org_id, keyId: this.run.key_id, runId: this.run.id, usd: s.usd, at });
      const runCost = roundUsd(store.spend.forRun(this.run.id));
      this.patchRun({ ...usage, step_count: this.stepCount, ...(s.usd > 0 ? { cost_usd: runCost } : {}) });
      this.stepEvents.announcer.announce(uow, {
        type: 'run.step',
        orgId: this.run.org_id,
        runId: this.run.id,
        data: { ...toRunStep(row, this.stepEvents.linkScreenshot), run_cost_usd: runCost },
      });
    });
  }

  /**
   * Usage and progress land on the run only while it runs: a terminal envelope never changes (#10). A step that
   * ends after the run was cancelled (a tool call cut short by the cancel) is still recorded as a step, and what it
   * cost still counts against the caps, but the cancelled envelope stays as it was answered.
   */
  private patchRun(patch: RunPatch): void {
    this.r.store.runs.patch(this.run.id, 'running', patch);
  }
}

/** Keeps a step's input valid JSON however large the tool input was: oversized strings are cut in the middle. */
function truncateJson(value: unknown): string {
  const text = JSON.stringify(value);
  if (text.length <= STEP_INPUT_LIMIT) return text;
  const shortened = JSON.stringify(value, (_key, v: unknown) => (typeof v === 'string' && v.length > 1_000 ? truncateMiddle(v, 1_000) : v));
  return shortened.length <= STEP_INPUT_LIMIT ? shortened : JSON.stringify({ truncated: truncateMiddle(text, STEP_INPUT_LIMIT) });
}
