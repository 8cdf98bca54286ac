import { join } from 'node:path';

/** Where things live in the data directory (ERRAND_HOME). */
export function dataPaths(home: string) {
  return {
    home,
    database: join(home, 'errand.db'),
    config: join(home, 'config.json'),
    /** Written by a running daemon: its pid and address, so the CLI finds it without flags. */
    daemonState: join(home, 'errandd.json'),
    daemonLog: join(home, 'errandd.log'),
    /** The CLI's saved API address and key (`errand login`), mode 0600. */
    credentials: join(home, 'credentials.json'),
    artifacts: join(home, 'artifacts'),
    /** Files of received mail's attachments, named by `email_attachments.path`. */
    mailAttachments: join(home, 'mail', 'attachments'),
    /** Uploaded files (POST /v1/files), named by `files.path`. */
    files: join(home, 'files'),
    /** Uploads still streaming, renamed under `files` once whole. */
    filesIncoming: join(home, 'files', 'incoming'),
    sandboxes: join(home, 'sandboxes'),
    /** A random id of this installation, made on first use; Docker sandbox containers carry it as a label. */
    installationId: join(home, 'installation-id'),
  };
}
