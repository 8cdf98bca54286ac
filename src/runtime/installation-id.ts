import { randomBytes } from 'node:crypto';
import { linkSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dataPaths } from './paths.js';
import { PRIVATE_FILE_MODE } from './private-files.js';

const ID_PATTERN = /^[0-9a-f]{32}$/;

/**
 * The random id of the installation whose data directory is `home`, made and kept there on first use. Unlike the
 * directory's path, it differs between two installations that happen to share a path (two containers, or two users'
 * `~/.errand` seen by one Docker engine). Safe against a concurrent first use: the file appears whole or not at all.
 */
export function installationId(home: string): string {
  const path = dataPaths(home).installationId;
  const existing = readId(path);
  if (existing !== null) return existing;
  const staged = `${path}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(staged, `${randomBytes(16).toString('hex')}\n`, { mode: PRIVATE_FILE_MODE });
  try {
    linkSync(staged, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    rmSync(staged, { force: true });
  }
  const id = readId(path);
  if (id === null) throw new Error(`${path} does not hold an installation id`);
  return id;
}

function readId(path: string): string | null {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const id = text.trim();
  if (!ID_PATTERN.test(id)) throw new Error(`${path} is not an installation id (32 hex digits); remove it and start again`);
  return id;
}
