import { createReadStream, type ReadStream } from 'node:fs';
import { mkdir, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { LinkSigner, type SignedQuery } from '../../artifacts/link-signer.js';
import { isoTime, type Clock } from '../../clock.js';
import { NotFoundError } from '../../errors.js';
import type { IdFactory } from '../../ids.js';
import type { AttachmentRow } from '../../store/received-emails-store.js';
import type { Store } from '../../store/store.js';

/** An attachment as a webhook and the API list it: its metadata and a link that works without an API key. */
export interface AttachmentLink {
  id: string;
  filename: string | null;
  content_type: string;
  size: number;
  url: string;
}

export interface IncomingAttachment {
  filename: string | null;
  contentType: string;
  content: Buffer;
}

export interface MailAttachmentsOptions {
  store: Store;
  clock: Clock;
  ids: IdFactory;
  /** `<home>/mail/attachments`. */
  root: string;
  signer: LinkSigner;
  publicUrl: () => string;
}

/**
 * Files that arrive with inbound mail, kept at `mail/attachments/<org>/<message>/<attachment>` in the data directory
 * and served through signed links (valid 7 days, like evidence screenshots), so that a webhook carries links, never
 * the files: a 30 MB attachment still makes a small webhook.
 */
export class MailAttachments {
  constructor(private readonly o: MailAttachmentsOptions) {}

  /** Writes the files of a received message; the rows are inserted with the message, in its transaction. */
  async save(orgId: string, receivedId: string, attachments: readonly IncomingAttachment[]): Promise<AttachmentRow[]> {
    const at = isoTime(this.o.clock.now());
    const rows: AttachmentRow[] = [];
    for (const a of attachments) {
      const id = this.o.ids('att');
      const path = join(orgId, receivedId, id);
      const file = join(this.o.root, path);
      await mkdir(dirname(file), { recursive: true, mode: 0o700 });
      await writeFile(file, a.content, { mode: 0o600 });
      rows.push({ id, received_id: receivedId, org_id: orgId, filename: a.filename, content_type: a.contentType, bytes: a.content.length, path, created_at: at });
    }
    return rows;
  }

  link(row: AttachmentRow): AttachmentLink {
    const q = this.o.signer.queryFor(row.id, this.o.clock.now());
    return {
      id: row.id,
      filename: row.filename,
      content_type: row.content_type,
      size: row.bytes,
      url: `${this.o.publicUrl()}/v1/emails/attachments/${row.id}?expires=${q.expires}&sig=${q.sig}`,
    };
  }

  /** The file a signed link names: 403 for a bad signature, 410 past expiry, 404 when it is gone. */
  async open(id: string, query: Partial<SignedQuery>): Promise<{ row: AttachmentRow; size: number; stream: ReadStream }> {
    this.o.signer.verify(id, query, this.o.clock.now());
    const row = this.o.store.receivedEmails.attachment(id);
    if (row === undefined) throw new NotFoundError('attachment', id);
    const file = join(this.o.root, row.path);
    try {
      const { size } = await stat(file);
      return { row, size, stream: createReadStream(file) };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new NotFoundError('attachment', id);
      throw err;
    }
  }
}
