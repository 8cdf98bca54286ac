import type { AttemptParticipant } from '../attempt/attempt-participant.js';
import type { Resources } from '../resources.js';
import type { Subsystem } from '../subsystem.js';
import { FilesService } from './files-service.js';
import { inputFilesParticipant } from './input-files-participant.js';
import { RunInputFiles } from './run-input-files.js';

/** Files callers upload (POST /v1/files), and their part in each attempt: a run's input files placed in its sandbox. */
export function filesSubsystem(resources: Resources): Subsystem<{ files: FilesService; participant: AttemptParticipant }> {
  const files = new FilesService(resources);
  return { name: 'files', services: { files, participant: inputFilesParticipant(new RunInputFiles({ store: resources.store, files })) } };
}
