import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** The CLI's saved API address and key. Mode 0600: it holds a secret, like gh's hosts.yml. */
export interface Credentials {
  api_url: string | null;
  api_key: string;
}

export function readCredentials(path: string): Credentials | null {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as Credentials;
  } catch {
    return null;
  }
}

export function writeCredentials(path: string, creds: Credentials): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(creds, null, 2)}\n`, { mode: 0o600 });
  chmodSync(path, 0o600);
}
