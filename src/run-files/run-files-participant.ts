import type { AttemptParticipant } from '../attempt/attempt-participant.js';
import type { ArtifactsService } from '../artifacts/artifacts-service.js';
import type { Config } from '../config/schema.js';
import { collectRunFiles, runFileLimits, withFilesProblem } from './run-file-collection.js';

/** Copying a run's files into the data directory: minutes for the largest allowed, never for ever. */
const COLLECT_TIMEOUT_MS = 10 * 60_000;

/**
 * A run's files (docs/api.md, Run files): the sandbox measures them against the run's limits from the start, and
 * they are kept when the attempt has an outcome, a failed one's too, before the sandbox goes. A cancelled or
 * re-queued attempt has no outcome, and no envelope to link them from.
 */
export function runFilesParticipant(deps: { artifacts: ArtifactsService; config: Config }): AttemptParticipant {
  const limits = runFileLimits(deps.config);
  return {
    name: 'run_files',
    async join(attempt) {
      // The driver's sandbox: the files are the run's, not a step a recipe keeps.
      const { sandbox, run, mask, logger } = attempt;
      await sandbox.limitOutputs(limits, attempt.signal);
      return {
        /**
         * Says in the outcome what was not kept: past a limit, a failure; a file that holds one of the run's secrets,
         * or files the sandbox could not hand over, a warning (the run did what it was asked, and its files were lost
         * to its secrets or with the sandbox, not to a limit).
         */
        async settle() {
          try {
            const kept = await collectRunFiles({ run, sandbox, artifacts: deps.artifacts, limits, mask, signal: AbortSignal.timeout(COLLECT_TIMEOUT_MS), logger });
            return (outcome) => withFilesProblem(outcome, kept);
          } catch (err) {
            logger.warn({ err }, "the run's files could not be kept");
            const warning = `the run's files could not be kept: ${err instanceof Error ? err.message : String(err)}`;
            return (outcome) => ({ ...outcome, warnings: [...outcome.warnings, warning] });
          }
        },
      };
    },
  };
}
