import { NotFoundError } from '../errors.js';
import type { PlacedInput } from '../attempt/placed-input.js';
import type { Sandbox } from '../sandbox/driver.js';
import type { Store } from '../store/store.js';
import type { FilesService } from './files-service.js';
import { InputFilesError } from './input-files-error.js';

/**
 * Puts a run's input files (its `files`) into its sandbox's /workspace/in before the agent's first step (issue 23,
 * item 3), streamed from the data directory. Their rows cannot go while the run is queued or running (DELETE is
 * refused), so what can fail is the bytes gone from the disk: the run then fails, naming the file.
 */
export class RunInputFiles {
  constructor(private readonly deps: { store: Store; files: FilesService }) {}

  async place(runId: string, sandbox: Sandbox, signal: AbortSignal): Promise<PlacedInput[]> {
    const placed: PlacedInput[] = [];
    for (const row of this.deps.store.files.inputsOf(runId)) {
      let body;
      try {
        body = await this.deps.files.openRow(row);
      } catch (err) {
        if (err instanceof NotFoundError) throw new InputFilesError(`the input file ${row.id} (${row.name}) is no longer stored; upload it again and start a new run`);
        throw err;
      }
      await sandbox.putInput(row.name, body, signal);
      placed.push({ name: row.name, size: row.bytes, contentType: row.content_type });
    }
    return placed;
  }
}
