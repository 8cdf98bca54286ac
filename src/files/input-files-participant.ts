import type { AttemptParticipant } from '../attempt/attempt-participant.js';
import type { RunInputFiles } from './run-input-files.js';

/** The run's input files (docs/api.md, Files), placed in its sandbox's /workspace/in before the agent's first step. */
export function inputFilesParticipant(inputFiles: RunInputFiles): AttemptParticipant {
  return {
    name: 'input_files',
    async join(attempt) {
      attempt.progress('placing the input files');
      const placed = await inputFiles.place(attempt.run.id, attempt.sandbox, attempt.signal);
      return { joined: { inputFiles: placed } };
    },
  };
}
