import type { AttemptParticipant } from '../attempt/attempt-participant.js';
import type { ArtifactsService } from '../artifacts/artifacts-service.js';
import { LinkSigner } from '../artifacts/link-signer.js';
import type { Resources } from '../resources.js';
import type { Subsystem } from '../subsystem.js';
import { runFilesParticipant } from './run-files-participant.js';
import { RUN_FILE_LINK_PURPOSE, RunFilesService } from './run-files-service.js';

/**
 * A run's files: artifacts too, with links of their own, served as attachments, never inline; and their part in
 * each attempt (the limits from the start, the files kept at its end).
 */
export function runFilesSubsystem(deps: { resources: Resources; artifacts: ArtifactsService; masterKey: Buffer; publicUrl: () => string }): Subsystem<{ runFiles: RunFilesService; participant: AttemptParticipant }> {
  const { resources, artifacts } = deps;
  const runFiles = new RunFilesService(resources, { artifacts, signer: new LinkSigner(deps.masterKey, { purpose: RUN_FILE_LINK_PURPOSE }), publicUrl: deps.publicUrl });
  return { name: 'run-files', services: { runFiles, participant: runFilesParticipant({ artifacts, config: resources.config }) } };
}
