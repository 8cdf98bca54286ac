import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { lookup } from 'mime-types';
import { isoTime } from '../clock.js';
import { ConflictError, InvalidRequestError, NotFoundError, PayloadTooLargeError, QuotaError } from '../errors.js';
import { pageQuery, toListResponse, type ListResponse } from '../pagination.js';
import type { Resources } from '../resources.js';
import { dataPaths } from '../runtime/paths.js';
import type { FileRow } from '../store/files-store.js';
import { sanitizeFileName } from './file-name.js';
import type { FileListQuery } from './file-schemas.js';
import { UploadsInFlight } from './uploads-in-flight.js';

const MIB = 1024 * 1024;
const GENERIC_TYPE = 'application/octet-stream';

export interface StoredFile {
  id: string;
  object: 'file';
  name: string;
  size: number;
  sha256: string;
  content_type: string;
  created_at: string;
}

/** An upload as the HTTP layer hands it over: the bytes as a stream, never whole in memory. */
export interface IncomingFile {
  /** The name the caller gave; required. */
  name: string | undefined;
  /** The content type the caller declared, if any. */
  contentType: string | undefined;
  /** The Content-Length of a raw body, when sent: refused before a byte is read when it is already too large. */
  declaredBytes: number | null;
  body: Readable;
  /**
   * Aborted when the HTTP layer gives up on the body (too slow: a 408 is on its way): the upload stops and leaves
   * nothing behind. Its reason is what the upload rejects with.
   */
  stopped?: AbortSignal;
}

export interface FileContent {
  file: StoredFile;
  body: Readable;
}

/**
 * Files a caller uploads for its runs (issue 23, item 3), kept at `files/<org>/<file>` in the data directory with a
 * row each. An upload streams through a hash and a count into `files/incoming/` and is renamed into place once whole,
 * so memory stays flat however large it is, and a refused or broken upload leaves nothing behind.
 */
export class FilesService {
  private readonly root: string;
  private readonly incoming: string;
  /** The uploads each API key has in flight (`files.max_uploads_per_key`): the route begins one before reading its body. */
  readonly inFlight: UploadsInFlight;

  constructor(private readonly r: Pick<Resources, 'store' | 'clock' | 'ids' | 'config' | 'home' | 'logger'>) {
    this.root = dataPaths(r.home).files;
    this.incoming = dataPaths(r.home).filesIncoming;
    this.inFlight = new UploadsInFlight(() => r.config['files.max_uploads_per_key']);
  }

  /** The largest upload, in bytes (`files.max_mb`). */
  maxBytes(): number {
    return this.r.config['files.max_mb'] * MIB;
  }

  /**
   * POST /v1/files. 413 file_too_large beyond `files.max_mb`; 402 file_quota_exceeded when the organisation's files
   * would hold more than `files.org_quota_mb`. Both are checked on the declared length first, then as bytes arrive,
   * and the quota again when the file is recorded, against uploads that finished meanwhile.
   */
  async upload(orgId: string, incoming: IncomingFile): Promise<StoredFile> {
    if (incoming.name === undefined) throw new InvalidRequestError('missing_name', 'A raw upload needs the file\'s name in the `name` query parameter', { param: 'name' });
    const name = sanitizeFileName(incoming.name);
    const maxBytes = this.maxBytes();
    // Refused before a byte is read: Node reads the rest of the body and drops it, so the client, still sending, gets
    // the answer rather than a broken pipe (`errand files upload` of too big a file printed EPIPE).
    if (incoming.declaredBytes !== null && incoming.declaredBytes > maxBytes) throw tooLarge(maxBytes, false);
    if (incoming.declaredBytes !== null) this.assertQuota(orgId, incoming.declaredBytes);
    const room = this.quotaBytes() - this.r.store.files.usedBytes(orgId);
    if (room <= 0) throw this.quotaError(orgId, 1, false);

    await mkdir(this.incoming, { recursive: true, mode: 0o700 });
    const partial = join(this.incoming, `${randomBytes(12).toString('hex')}.part`);
    const meter = new UploadMeter(maxBytes, room, (bytes) => this.quotaError(orgId, bytes, true));
    try {
      await pipeline(incoming.body, meter, createWriteStream(partial, { mode: 0o600 }), { signal: incoming.stopped }).catch((err: unknown) => {
        throw incoming.stopped?.aborted === true ? incoming.stopped.reason : err;
      });
      const id = this.r.ids('file');
      const path = join(orgId, id);
      await mkdir(join(this.root, orgId), { recursive: true, mode: 0o700 });
      await rename(partial, join(this.root, path));
      const row: FileRow = {
        id,
        org_id: orgId,
        name,
        path,
        content_type: contentTypeOf(incoming.contentType, name),
        bytes: meter.bytes,
        sha256: meter.sha256(),
        created_at: isoTime(this.r.clock.now()),
      };
      try {
        this.r.store.transaction((uow) => {
          this.assertQuota(orgId, row.bytes);
          this.r.store.files.insert(uow, row);
        });
      } catch (err) {
        await unlink(join(this.root, path)).catch(() => undefined);
        throw err;
      }
      return toFile(row);
    } catch (err) {
      await unlink(partial).catch(() => undefined);
      throw err;
    }
  }

  list(orgId: string, q: FileListQuery): ListResponse<StoredFile> {
    return toListResponse(this.r.store.files.list(orgId, pageQuery(q), q.sha256 ?? null), toFile);
  }

  get(orgId: string, id: string): StoredFile {
    return toFile(this.row(orgId, id));
  }

  row(orgId: string, id: string, param?: string): FileRow {
    const row = this.r.store.files.get(orgId, id);
    if (row === undefined) throw new NotFoundError('file', id, param);
    return row;
  }

  /** GET /v1/files/{id}/content: the bytes as a stream, opened before the answer starts (a lost file is a 404). */
  async open(orgId: string, id: string): Promise<FileContent> {
    const row = this.row(orgId, id);
    return { file: toFile(row), body: await this.openRow(row) };
  }

  /** A stored file's bytes; `NotFoundError` when its file is gone from the data directory. */
  async openRow(row: FileRow): Promise<Readable> {
    const path = join(this.root, row.path);
    try {
      await stat(path);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new NotFoundError('file', row.id);
      throw err;
    }
    return createReadStream(path);
  }

  /**
   * DELETE /v1/files/{id}. Refused (409 file_in_use) while a queued or running run takes it as input: that run
   * would start without it. Runs that have ended keep their history; their record of the file goes.
   */
  async delete(orgId: string, id: string): Promise<{ id: string; object: 'file'; deleted: true }> {
    const row = this.row(orgId, id);
    this.r.store.transaction((uow) => {
      const users = this.r.store.files.activeUsers(uow, id);
      if (users.length > 0) {
        const runs = users.map((u) => `${u.run_id} (${u.status})`).join(', ');
        throw new ConflictError('file_in_use', `File ${id} is an input file of runs that have not ended: ${runs}; delete it once they end, or cancel them`);
      }
      this.r.store.files.delete(uow, orgId, id);
    });
    await unlink(join(this.root, row.path)).catch((err: unknown) => {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') this.r.logger.warn({ err, fileId: id }, 'could not remove a deleted file\'s bytes');
    });
    return { id, object: 'file', deleted: true };
  }

  private quotaBytes(): number {
    return this.r.config['files.org_quota_mb'] * MIB;
  }

  private assertQuota(orgId: string, adding: number): void {
    if (this.r.store.files.usedBytes(orgId) + adding > this.quotaBytes()) throw this.quotaError(orgId, adding, false);
  }

  /** `close`: refused part-way through the body, whose stream is gone; the connection cannot carry another request. */
  private quotaError(orgId: string, adding: number, close: boolean): QuotaError {
    const used = this.r.store.files.usedBytes(orgId);
    return new QuotaError(
      'file_quota_exceeded',
      `The organisation's files hold ${used} bytes; ${adding} more would pass its quota of ${this.quotaBytes()} bytes (files.org_quota_mb is ${this.r.config['files.org_quota_mb']}). Delete files it no longer needs`,
      close ? { headers: { connection: 'close' } } : {},
    );
  }
}

function tooLarge(maxBytes: number, close: boolean): PayloadTooLargeError {
  // Part-way through the body (`close`), the rest is not read: the connection closes after the answer.
  return new PayloadTooLargeError('file_too_large', `The file is larger than ${maxBytes} bytes (files.max_mb)`, close ? { headers: { connection: 'close' } } : {});
}

/** The declared type unless it says nothing (octet-stream, none), then the name's, else octet-stream. */
function contentTypeOf(declared: string | undefined, name: string): string {
  const type = declared?.split(';')[0]?.trim().toLowerCase();
  if (type !== undefined && type !== '' && type !== GENERIC_TYPE && /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+$/.test(type)) return type;
  return lookup(name) || GENERIC_TYPE;
}

/** Counts and hashes the bytes going past; fails the stream at the size limit or the quota's room. */
class UploadMeter extends Transform {
  bytes = 0;
  private readonly hash = createHash('sha256');

  constructor(
    private readonly maxBytes: number,
    private readonly room: number,
    private readonly overQuota: (bytes: number) => Error,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.maxBytes) return done(tooLarge(this.maxBytes, true));
    if (this.bytes > this.room) return done(this.overQuota(this.bytes));
    this.hash.update(chunk);
    done(null, chunk);
  }

  sha256(): string {
    return this.hash.digest('hex');
  }
}

function toFile(row: FileRow): StoredFile {
  return { id: row.id, object: 'file', name: row.name, size: row.bytes, sha256: row.sha256, content_type: row.content_type, created_at: row.created_at };
}
