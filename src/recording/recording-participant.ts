import type { AttemptParticipant } from '../attempt/attempt-participant.js';
import type { ArtifactsService } from '../artifacts/artifacts-service.js';
import type { Clock } from '../clock.js';
import { RunRecording, withRecording } from './run-recording.js';

/**
 * A run's recording (docs/api.md, Recordings), when the installation and the run want one: started before the
 * agent's first step, finished when the attempt has an outcome, its files kept as the run's artifacts.
 */
export function recordingParticipant(deps: { artifacts: ArtifactsService; clock: Clock; enabled: boolean }): AttemptParticipant {
  return {
    name: 'recording',
    async join(attempt) {
      if (!RunRecording.wanted(attempt.run, deps.enabled)) return null;
      const recording = new RunRecording(attempt.run, attempt.sandbox, attempt.credentials, deps.artifacts, attempt.logger);
      await recording.start(attempt.signal);
      return {
        async settle() {
          const ids = await recording.finish();
          return (outcome) => withRecording(outcome, ids, deps.clock.now());
        },
      };
    },
  };
}
