import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const DEFAULT_DEBIAN_MIRROR = 'http://deb.debian.org/debian';

/**
 * The Debian mirror this host's apt already uses for `suite`, so that debootstrap works on machines that can only
 * reach a local mirror. Reads deb822 `.sources` files and one-line `.list` files the way apt does (other file names
 * in sources.list.d are ignored by apt, so they are ignored here too).
 */
export function hostDebianMirror(suite: string, aptDir = '/etc/apt'): string {
  const files: string[] = [];
  const listFile = join(aptDir, 'sources.list');
  if (existsSync(listFile)) files.push(listFile);
  const dir = join(aptDir, 'sources.list.d');
  if (existsSync(dir)) {
    for (const name of readdirSync(dir).sort()) {
      if (name.endsWith('.sources') || name.endsWith('.list')) files.push(join(dir, name));
    }
  }
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const found = file.endsWith('.sources') ? mirrorInDeb822(text, suite) : mirrorInOneLine(text, suite);
    if (found) return found;
  }
  return DEFAULT_DEBIAN_MIRROR;
}

function mirrorInDeb822(text: string, suite: string): string | null {
  for (const stanza of text.split(/\n\s*\n/)) {
    const fields = new Map<string, string>();
    for (const line of stanza.split('\n')) {
      const match = /^([A-Za-z-]+):\s*(.*)$/.exec(line);
      if (match?.[1] && match[2] !== undefined) fields.set(match[1].toLowerCase(), match[2].trim());
    }
    const types = (fields.get('types') ?? '').split(/\s+/);
    const suites = (fields.get('suites') ?? '').split(/\s+/);
    const uri = (fields.get('uris') ?? '').split(/\s+/)[0];
    if (fields.get('enabled') === 'no') continue;
    if (types.includes('deb') && suites.includes(suite) && uri && isHttpUri(uri)) return uri;
  }
  return null;
}

function mirrorInOneLine(text: string, suite: string): string | null {
  for (const raw of text.split('\n')) {
    const line = raw.replace(/#.*/, '').trim();
    // `deb [arch=amd64 signed-by=...] URI SUITE COMPONENT...`
    const match = /^deb\s+(?:\[[^\]]*\]\s+)?(\S+)\s+(\S+)/.exec(line);
    if (match?.[1] && match[2] === suite && isHttpUri(match[1])) return match[1];
  }
  return null;
}

function isHttpUri(uri: string): boolean {
  return uri.startsWith('http://') || uri.startsWith('https://');
}
