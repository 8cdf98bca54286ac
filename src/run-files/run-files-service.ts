import { open as openFile } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import type { ArtifactsService } from '../artifacts/artifacts-service.js';
import type { LinkSigner, SignedQuery } from '../artifacts/link-signer.js';
import { isoTime } from '../clock.js';
import { NotFoundError } from '../errors.js';
import type { ListResponse } from '../pagination.js';
import type { Resources } from '../resources.js';
import type { ArtifactRow } from '../store/artifacts-store.js';
import type { RunRow } from '../store/runs-table.js';
import { isTerminal } from '../vocabulary/run-status.js';

/** Distinct from the artifacts' links: a file's signature opens nothing at /v1/artifacts, where it would show inline. */
export const RUN_FILE_LINK_PURPOSE = 'errand run file links v1';

/** One of a run's files, as the API gives it (run-file-schemas.ts). */
export interface RunFile {
  name: string;
  size: number;
  sha256: string;
  content_type: string;
  url: string;
  expires_at: string;
}

export interface RunFilesServiceOptions {
  artifacts: ArtifactsService;
  /** Signs the files' links, under `RUN_FILE_LINK_PURPOSE`. */
  signer: LinkSigner;
  /** Base of absolute links; a function because the port is known only once the daemon listens. */
  publicUrl: () => string;
}

/** A file a signed link names, opened, to be streamed from disk. */
export interface RunFileDownload {
  file: ArtifactRow & { name: string };
  stream: Readable;
}

/**
 * A run's files (issue 23, item 2; docs/api.md, Run files): kept by the engine as artifacts of kind `file` when the
 * run ends (run-file-collection.ts), listed with signed links here, and served to anyone holding a link, as an
 * attachment. They go with the artifacts' retention.
 */
export class RunFilesService {
  constructor(
    private readonly r: Resources,
    private readonly options: RunFilesServiceOptions,
  ) {}

  /**
   * The files of a run, for its envelope: none before it ends (they are kept as it ends), so a run still going costs
   * no query. A file retention is about to remove is left out, since its link could not be used.
   */
  filesOf(row: RunRow): RunFile[] {
    if (!isTerminal(row.status)) return [];
    const files: RunFile[] = [];
    for (const artifact of this.r.store.artifacts.filesOf(row.id)) {
      const file = this.toRunFile(artifact);
      if (file !== null) files.push(file);
    }
    return files;
  }

  /** GET /v1/runs/{id}/files: another organisation's run is 404, as a run that does not exist. */
  list(orgId: string, runId: string): ListResponse<RunFile> {
    const run = this.r.store.runs.get(orgId, runId);
    if (!run) throw new NotFoundError('run', runId);
    return { object: 'list', data: this.filesOf(run), has_more: false, next_cursor: null };
  }

  /** The file a signed link names: 403 for a bad signature, 410 past expiry, 404 when it is gone or of another run. */
  async open(runId: string, fileId: string, query: Partial<SignedQuery>): Promise<RunFileDownload> {
    this.options.signer.verify(fileId, query, this.r.clock.now());
    const file = this.r.store.artifacts.get(fileId);
    if (!file || file.kind !== 'file' || file.run_id !== runId || file.name === null) throw new NotFoundError('file', fileId);
    // Opened before the answer starts, so that a file retention has just removed is a 404, not a broken 200.
    const handle = await openFile(this.options.artifacts.fileOf(file)).catch((err: NodeJS.ErrnoException) => {
      throw err.code === 'ENOENT' ? new NotFoundError('file', fileId) : err;
    });
    return { file: { ...file, name: file.name }, stream: handle.createReadStream() };
  }

  private toRunFile(artifact: ArtifactRow): RunFile | null {
    const now = this.r.clock.now();
    const goneAt = this.options.artifacts.goneAt(artifact.id);
    if (goneAt <= now || artifact.name === null || artifact.sha256 === null) return null;
    const q = this.options.signer.queryFor(artifact.id, now, goneAt);
    return {
      name: artifact.name,
      size: artifact.bytes,
      sha256: artifact.sha256,
      content_type: artifact.content_type,
      url: `${this.options.publicUrl()}/v1/runs/${artifact.run_id}/files/${artifact.id}?expires=${q.expires}&sig=${q.sig}`,
      expires_at: isoTime(q.expires * 1000),
    };
  }
}
