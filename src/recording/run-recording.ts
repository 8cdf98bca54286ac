import type { Logger } from 'pino';
import type { ArtifactsService } from '../artifacts/artifacts-service.js';
import { isoTime } from '../clock.js';
import type { RunCredentials } from '../connections/run-connections.js';
import { SecretMask } from '../connections/secret-mask.js';
import type { RunOutcome } from '../runs/run-outcome.js';
import type { Sandbox } from '../sandbox/driver.js';
import type { RunRow } from '../store/runs-table.js';

/** Stopping the trace, masking it and encoding the video take seconds; a sandbox that hangs must not keep the run. */
const FINISH_TIMEOUT_MS = 120_000;

export interface RecordingIds {
  recording_artifact_id: string | null;
  trace_artifact_id: string | null;
}

/**
 * A run's recording (docs/api.md, Recordings): started in the sandbox before the agent's first step, so the trace
 * covers the browser from its launch, and finished before the sandbox goes, its files kept as the run's artifacts.
 * A recording that cannot be made never fails the run: it is logged, and the run has no recording links.
 */
export class RunRecording {
  private started = false;

  /**
   * The secrets the trace is masked for: those the sandbox holds already (typed by reference, TOTP seeds it computes
   * codes from, or in its environment); the codes it typed, which only the sandbox knows, it masks itself.
   * The others (an OAuth token kept out of the environment, an MCP server's credential) never reach the sandbox, so
   * they cannot be in its trace, and they are not sent there to be looked for.
   */
  private readonly mask: SecretMask;

  constructor(
    private readonly run: RunRow,
    private readonly sandbox: Sandbox,
    credentials: RunCredentials,
    private readonly artifacts: ArtifactsService,
    private readonly logger: Logger,
  ) {
    const inEnvironment = new Set(Object.values(credentials.env));
    this.mask = new SecretMask(credentials.secrets.filter((secret) => secret.typeable === true || secret.totp !== undefined || inEnvironment.has(secret.value)));
  }

  /** Whether a run records: the installation's `recording.enabled`, and the run's own choice (or its job's). */
  static wanted(run: RunRow, enabled: boolean): boolean {
    return enabled && run.recording === 1;
  }

  async start(signal: AbortSignal): Promise<void> {
    try {
      await this.sandbox.startRecording(signal);
      this.started = true;
    } catch (err) {
      if (signal.aborted) throw err;
      this.logger.warn({ err }, 'the sandbox could not start recording; the run goes on unrecorded');
    }
  }

  /** Stops the recording with every form of the sandbox's secrets masked in the trace, and keeps its files. */
  async finish(): Promise<RecordingIds | null> {
    if (!this.started) return null;
    try {
      const files = await this.sandbox.finishRecording(this.mask.allForms, AbortSignal.timeout(FINISH_TIMEOUT_MS));
      if (files === null) return null;
      if (files.detail !== null) this.logger.warn({ detail: files.detail }, 'the recording has no video');
      const { org_id: orgId, id: runId } = this.run;
      const trace = await this.artifacts.saveRecording(orgId, runId, 'trace', files.trace);
      const video = files.video === null ? null : await this.artifacts.saveRecording(orgId, runId, 'recording', files.video);
      return { recording_artifact_id: video?.id ?? null, trace_artifact_id: trace.id };
    } catch (err) {
      this.logger.warn({ err }, 'the recording could not be kept');
      return null;
    }
  }
}

/** The outcome with its recording's artifacts in the evidence (an evidence of its own when it had none). */
export function withRecording(outcome: RunOutcome, ids: RecordingIds | null, nowMs: number): RunOutcome {
  if (ids === null) return outcome;
  const evidence = outcome.evidence ?? { artifact_id: null, matched_text: null, checked_at: isoTime(nowMs) };
  return { ...outcome, evidence: { ...evidence, ...ids } };
}
