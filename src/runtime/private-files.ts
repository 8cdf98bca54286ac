import { randomBytes } from 'node:crypto';
import { renameSync, rmSync, writeFileSync } from 'node:fs';

/**
 * The data directory holds every run, email and secret of the installation: it is the daemon user's alone (issue 21).
 * Files are created with these modes, and the daemon tightens anything looser when it starts.
 */
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** Replaces `path` with `content`, mode 0600, atomically: a reader sees the old file or the new one, never a part. */
export function replacePrivateFile(path: string, content: string | Buffer): void {
  const temp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    writeFileSync(temp, content, { mode: PRIVATE_FILE_MODE });
    renameSync(temp, path);
  } finally {
    rmSync(temp, { force: true });
  }
}
