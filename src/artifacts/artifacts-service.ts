import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { isoTime } from '../clock.js';
import { NotFoundError } from '../errors.js';
import { idTimeMs } from '../ids.js';
import type { Resources } from '../resources.js';
import { dataPaths } from '../runtime/paths.js';
import type { ArtifactRow } from '../store/artifacts-store.js';
import type { LinkSigner, SignedQuery } from './link-signer.js';

const DAY_MS = 24 * 3600 * 1000;

export type ArtifactKind = 'screenshot' | 'recording' | 'trace';

/** What each kind of artifact is stored and served as. */
export const ARTIFACT_FILES: Readonly<Record<ArtifactKind, { extension: string; contentType: string }>> = {
  screenshot: { extension: 'png', contentType: 'image/png' },
  recording: { extension: 'webm', contentType: 'video/webm' },
  trace: { extension: 'zip', contentType: 'application/zip' },
};

export interface ArtifactsServiceOptions {
  signer: LinkSigner;
  /** Base of absolute links; a function because the port is known only once the daemon listens. */
  publicUrl: () => string;
}

export interface ArtifactContent {
  artifact: ArtifactRow;
  body: Buffer;
}

/**
 * Files runs produce, kept in the data directory at `artifacts/<org>/<run>/<artifact>.<ext>` with a row each, and
 * served to anyone holding a signed link (no API key: links go into webhooks, emails and dashboards).
 */
export class ArtifactsService {
  private readonly root: string;

  constructor(
    private readonly r: Resources,
    private readonly options: ArtifactsServiceOptions,
  ) {
    this.root = dataPaths(r.home).artifacts;
  }

  saveScreenshot(orgId: string, runId: string, png: Buffer, takenAtMs: number): Promise<ArtifactRow> {
    return this.save(orgId, runId, 'screenshot', png, takenAtMs);
  }

  /** A run's recording: its video (WebM) or its Playwright trace (zip), kept and linked as screenshots are. */
  saveRecording(orgId: string, runId: string, kind: 'recording' | 'trace', body: Buffer): Promise<ArtifactRow> {
    return this.save(orgId, runId, kind, body, this.r.clock.now());
  }

  /** Writes the file, then its row: a crash in between leaves an unreferenced file, never a row without one. */
  private async save(orgId: string, runId: string, kind: ArtifactKind, body: Buffer, madeAtMs: number): Promise<ArtifactRow> {
    const id = this.r.ids('art');
    const { extension, contentType } = ARTIFACT_FILES[kind];
    const path = join(orgId, runId, `${id}.${extension}`);
    const file = join(this.root, path);
    await mkdir(dirname(file), { recursive: true, mode: 0o700 });
    await writeFile(file, body, { mode: 0o600 });
    const row: ArtifactRow = {
      id,
      org_id: orgId,
      run_id: runId,
      kind,
      path,
      content_type: contentType,
      bytes: body.length,
      created_at: isoTime(madeAtMs),
    };
    this.r.store.artifacts.insert(row);
    return row;
  }

  /**
   * An absolute link that works without an API key for 7 days from now, or until retention removes the artifact
   * (`retention.artifacts_days` after it was made) when that is sooner; null once it is due to go.
   */
  signedUrl(artifactId: string): string | null {
    const now = this.r.clock.now();
    const keep = this.r.config['retention.artifacts_days'];
    const goneAt = keep === 0 ? Infinity : idTimeMs(artifactId) + keep * DAY_MS;
    if (goneAt <= now) return null;
    const q = this.options.signer.queryFor(artifactId, now, goneAt);
    return `${this.options.publicUrl()}/v1/artifacts/${artifactId}?expires=${q.expires}&sig=${q.sig}`;
  }

  /** The artifact a signed link names: 403 for a bad signature, 410 past expiry, 404 when it is gone. */
  async open(artifactId: string, query: Partial<SignedQuery>): Promise<ArtifactContent> {
    this.options.signer.verify(artifactId, query, this.r.clock.now());
    const artifact = this.r.store.artifacts.get(artifactId);
    if (!artifact) throw new NotFoundError('artifact', artifactId);
    let body: Buffer;
    try {
      body = await readFile(join(this.root, artifact.path));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new NotFoundError('artifact', artifactId);
      throw err;
    }
    return { artifact, body };
  }
}
