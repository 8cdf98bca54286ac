import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
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

  /**
   * One of a run's files (issue 23), streamed to disk while its SHA-256 is taken, never more than `maxBytes` of it:
   * past that the copy stops, its partial file is removed and the answer is `too_large` (the run's file limits,
   * src/run-files/run-file-collection.ts). The row is written once the file is complete.
   */
  async saveRunFile(orgId: string, runId: string, file: { name: string; contentType: string }, content: AsyncIterable<Uint8Array>, maxBytes: number): Promise<ArtifactRow | 'too_large'> {
    const id = this.r.ids('art');
    const path = join(orgId, runId, `${id}.file`);
    const target = join(this.root, path);
    await mkdir(dirname(target), { recursive: true, mode: 0o700 });
    const hash = createHash('sha256');
    let bytes = 0;
    let tooLarge = false;
    try {
      await pipeline(
        content,
        async function* (source: AsyncIterable<Uint8Array>) {
          for await (const chunk of source) {
            bytes += chunk.length;
            if (bytes > maxBytes) {
              tooLarge = true;
              throw new Error(`${file.name} is larger than ${maxBytes} bytes`);
            }
            hash.update(chunk);
            yield chunk;
          }
        },
        createWriteStream(target, { mode: 0o600, flags: 'wx' }),
      );
    } catch (err) {
      await rm(target, { force: true });
      if (tooLarge) return 'too_large';
      throw err;
    }
    const row: ArtifactRow = {
      id,
      org_id: orgId,
      run_id: runId,
      kind: 'file',
      path,
      content_type: file.contentType,
      bytes,
      created_at: isoTime(this.r.clock.now()),
      name: file.name,
      sha256: hash.digest('hex'),
    };
    this.r.store.artifacts.insert(row);
    return row;
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
      name: null,
      sha256: null,
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
    const goneAt = this.goneAt(artifactId);
    if (goneAt <= now) return null;
    const q = this.options.signer.queryFor(artifactId, now, goneAt);
    return `${this.options.publicUrl()}/v1/artifacts/${artifactId}?expires=${q.expires}&sig=${q.sig}`;
  }

  /** When retention removes an artifact (`retention.artifacts_days` after it was made; Infinity when kept forever). */
  goneAt(artifactId: string): number {
    const keep = this.r.config['retention.artifacts_days'];
    return keep === 0 ? Infinity : idTimeMs(artifactId) + keep * DAY_MS;
  }

  /** Where an artifact's file is on disk. */
  fileOf(artifact: ArtifactRow): string {
    return join(this.root, artifact.path);
  }

  /**
   * The artifact a signed link names: 403 for a bad signature, 410 past expiry, 404 when it is gone. A run's file
   * (kind `file`) is never served here, inline: only by its own route, as an attachment (see run-files-service.ts).
   */
  async open(artifactId: string, query: Partial<SignedQuery>): Promise<ArtifactContent> {
    this.options.signer.verify(artifactId, query, this.r.clock.now());
    const artifact = this.r.store.artifacts.get(artifactId);
    if (!artifact || artifact.kind === 'file') throw new NotFoundError('artifact', artifactId);
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
