import { performance } from 'node:perf_hooks';
import type { Logger } from 'pino';
import type { ArtifactsService } from '../artifacts/artifacts-service.js';
import { isoTime, type Clock } from '../clock.js';
import type { StoredEvidence } from '../runs/envelope.js';
import type { Sandbox } from '../sandbox/driver.js';
import type { BrowserAction, BrowserResult, PageProblem } from '../sandbox/protocol.js';
import type { RunRow } from '../store/runs-table.js';
import { failedOutcome, type RunOutcome } from '../runs/run-outcome.js';
import type { EvidenceClaim, ToolEvidence } from '../agent-tools/agent-tool.js';
import type { RunRecorder } from '../steps/run-recorder.js';
import type { AttemptPhases } from './attempt-phases.js';
import { browserResultText, problemLine } from '../sandbox/browser-result-text.js';
import { truncateEnd } from '../agent-tools/truncate.js';

export interface EvidenceOptions {
  run: RunRow;
  sandbox: Sandbox;
  signal: AbortSignal;
  recorder: RunRecorder;
  artifacts: ArtifactsService;
  clock: Clock;
  logger: Logger;
  /** Where the attempt's time is counted: collecting the evidence is its phase `evidence`. */
  phases?: AttemptPhases;
}

interface Screenshot {
  artifactId: string;
  takenAtMs: number;
}

/**
 * What an attempt has seen that can back its answer or explain its failure: the screenshots it kept and the last
 * page problem the browser reported. The browser tool feeds it; finishing and giving up read it.
 */
export class Evidence implements ToolEvidence {
  private readonly screenshots: Screenshot[] = [];
  private lastProblem: { problem: PageProblem; url: string | null } | null = null;
  private browserUsed = false;

  constructor(private readonly o: EvidenceOptions) {}

  /** Notes what a browser action showed: a page problem replaces the last one, a page that worked clears it. */
  noteBrowser(action: BrowserAction, result: BrowserResult): void {
    this.browserUsed = true;
    if (result.problem) this.lastProblem = { problem: result.problem, url: result.url ?? (action.action === 'navigate' ? action.url : null) };
    else if (result.ok) this.lastProblem = null;
  }

  /** Stores a screenshot as an artifact of the run; answers its id, which the model may name as evidence. */
  async keepScreenshot(base64: string): Promise<string> {
    const takenAtMs = this.o.clock.now();
    const row = await this.o.artifacts.saveScreenshot(this.o.run.org_id, this.o.run.id, Buffer.from(base64, 'base64'), takenAtMs);
    this.screenshots.push({ artifactId: row.id, takenAtMs });
    return row.id;
  }

  /**
   * The evidence of an ending: the screenshot the model named (or the latest), taking one first when the browser
   * was used and none exists. Null for a failure with nothing to show. A named screenshot that does not exist adds
   * a warning.
   */
  async collect(claim: EvidenceClaim | null, warnings: string[], succeeded: boolean): Promise<StoredEvidence | null> {
    // Whatever the agent wrote as its failure_detail, a page the sandbox can never reach is named as the cause.
    if (!succeeded && this.lastProblem?.problem.kind === 'host_unreachable') warnings.push(this.lastProblem.problem.message);
    return this.gather(claim, warnings, succeeded);
  }

  private gather(claim: EvidenceClaim | null, warnings: string[], succeeded: boolean): Promise<StoredEvidence | null> {
    const phases = this.o.phases;
    return phases === undefined ? this.collectNow(claim, warnings, succeeded) : phases.time('evidence', () => this.collectNow(claim, warnings, succeeded));
  }

  private async collectNow(claim: EvidenceClaim | null, warnings: string[], succeeded: boolean): Promise<StoredEvidence | null> {
    if (this.browserUsed && this.screenshots.length === 0) await this.takeEvidenceScreenshot();
    const named = claim?.evidenceScreenshot ?? null;
    let shot = this.screenshots.at(-1) ?? null;
    if (named !== null && named !== 'latest') {
      const found = this.screenshots.find((s) => s.artifactId === named);
      if (found) shot = found;
      else warnings.push(`evidence_screenshot ${JSON.stringify(truncateEnd(named, 80))} is not a screenshot of this run; the latest one is the evidence instead`);
    }
    const matchedText = claim?.matchedText ?? null;
    if (!succeeded && shot === null && matchedText === null) return null;
    return { artifact_id: shot?.artifactId ?? null, matched_text: matchedText, checked_at: isoTime(shot?.takenAtMs ?? this.o.clock.now()) };
  }

  /**
   * The model stopped without an answer. The last page problem the browser saw explains it better than the
   * model's silence: a captcha ends the run as `captcha`, an unreachable site as `site_down`; otherwise `ambiguous`.
   */
  async giveUp(why: string, claim: EvidenceClaim | null = null): Promise<RunOutcome> {
    const warnings: string[] = [];
    // The page problem goes in the failure_detail, so it is not repeated as a warning.
    const evidence = await this.gather(claim, warnings, false);
    const seen = this.lastProblem;
    if (seen !== null) {
      const where = seen.url === null ? '' : ` at ${seen.url}`;
      const reason = seen.problem.kind === 'captcha' ? 'captcha' : 'site_down';
      return failedOutcome(reason, `${problemLine(seen.problem)}${where} (${why})`, { evidence, warnings });
    }
    return failedOutcome('ambiguous', claim?.failureDetail ?? why, { evidence, warnings });
  }

  private async takeEvidenceScreenshot(): Promise<void> {
    const started = performance.now();
    try {
      const result = await this.o.sandbox.browser({ action: 'screenshot' }, this.o.signal);
      if (result.screenshot === null) return;
      const artifactId = await this.keepScreenshot(result.screenshot);
      this.o.recorder.toolCall({
        name: 'browser.screenshot',
        input: { action: 'screenshot', taken_by: 'engine', why: 'evidence: the agent finished without taking a screenshot' },
        output: `screenshot id: ${artifactId}\n${browserResultText(result)}`,
        isError: false,
        durationMs: performance.now() - started,
        artifactId,
      });
    } catch (err) {
      if (this.o.signal.aborted) throw err;
      this.o.logger.warn({ err }, 'could not take the evidence screenshot');
    }
  }
}
