import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { escapeRegExp } from '../../text/escape-regexp.js';

/**
 * OpenSSH's known_hosts file, read as its client reads it with `StrictHostKeyChecking yes` (sshd(8), "SSH_KNOWN_HOSTS
 * FILE FORMAT"), for the `ssh://` hosts of `sandbox.hosts`: whoever answers in place of the host would get the Docker
 * API, root on that machine, so a host key this file does not vouch for is refused (issue 26).
 *
 * Read: host patterns with commas, `[host]:port` for ports other than 22, hashed names (`|1|salt|hmac`, as `ssh-keygen
 * -H` writes them), `*` and `?` wildcards, `!` negation, `@revoked`, comments and blank lines. `@cert-authority` lines
 * are skipped: host certificates are not supported.
 */

/** One key line of a known_hosts file. */
export interface KnownHostsEntry {
  /** Its line number in the file, from 1. */
  line: number;
  revoked: boolean;
  /** The host field: a comma list of patterns, or one hashed name. */
  hosts: string;
  /** The key's type as its blob names it (`ssh-ed25519`, `ssh-rsa`, `ecdsa-sha2-nistp256`, ...). */
  keyType: string;
  /** The public key blob, as an SSH server presents it. */
  key: Buffer;
}

/** What known_hosts says of a key a host presented. */
export type HostKeyVerdict =
  | { verdict: 'known'; line: number }
  /** No line for this host has this key, nor another key of its type. */
  | { verdict: 'unknown' }
  /** A line for this host has another key of this type: the host's key changed, or someone stands in for it. */
  | { verdict: 'changed'; line: number }
  | { verdict: 'revoked'; line: number };

/** The key lines of a known_hosts file's text; lines it cannot read (and `@cert-authority` ones) are skipped, as ssh does. */
export function parseKnownHosts(text: string): KnownHostsEntry[] {
  const entries: KnownHostsEntry[] = [];
  text.split('\n').forEach((raw, index) => {
    const fields = raw.trim().split(/\s+/);
    if (fields[0] === '' || fields[0]!.startsWith('#')) return;
    let revoked = false;
    if (fields[0]!.startsWith('@')) {
      if (fields[0] !== '@revoked') return;
      revoked = true;
      fields.shift();
    }
    const [hosts, keyType, encoded] = fields;
    if (hosts === undefined || keyType === undefined || encoded === undefined) return;
    const key = Buffer.from(encoded, 'base64');
    if (blobKeyType(key) !== keyType) return;
    entries.push({ line: index + 1, revoked, hosts, keyType, key });
  });
  return entries;
}

/** The name a host is known by in known_hosts: the host alone for port 22, `[host]:port` for any other. */
export function knownHostsName(host: string, port: number): string {
  const name = host.toLowerCase();
  return port === 22 ? name : `[${name}]:${port}`;
}

/** Whether an entry's host field names `name` (as knownHostsName makes it). */
export function entryNames(entry: KnownHostsEntry, name: string): boolean {
  if (entry.hosts.startsWith('|1|')) return hashedNameMatches(entry.hosts, name);
  let matched = false;
  for (const pattern of entry.hosts.toLowerCase().split(',')) {
    if (pattern.startsWith('!')) {
      // A negated pattern that matches rules the line out, whatever else on it matches.
      if (wildcardMatches(pattern.slice(1), name)) return false;
    } else if (wildcardMatches(pattern, name)) {
      matched = true;
    }
  }
  return matched;
}

/** What the entries say of `key`, presented by `host` on `port`: a revoked key is refused even where another line lists it. */
export function verifyHostKey(entries: readonly KnownHostsEntry[], host: string, port: number, key: Buffer): HostKeyVerdict {
  const name = knownHostsName(host, port);
  const mine = entries.filter((entry) => entryNames(entry, name));
  const revoked = mine.find((entry) => entry.revoked && entry.key.equals(key));
  if (revoked !== undefined) return { verdict: 'revoked', line: revoked.line };
  const listed = mine.filter((entry) => !entry.revoked);
  const known = listed.find((entry) => entry.key.equals(key));
  if (known !== undefined) return { verdict: 'known', line: known.line };
  const type = blobKeyType(key);
  const other = listed.find((entry) => entry.keyType === type);
  return other === undefined ? { verdict: 'unknown' } : { verdict: 'changed', line: other.line };
}

/**
 * The key types known_hosts lists for the host, in file order: the client offers them first, as ssh does, so that a
 * host with several keys presents one the file has.
 */
export function knownKeyTypes(entries: readonly KnownHostsEntry[], host: string, port: number): string[] {
  const name = knownHostsName(host, port);
  return [...new Set(entries.filter((entry) => !entry.revoked && entryNames(entry, name)).map((entry) => entry.keyType))];
}

/** The key's fingerprint as `ssh-keygen -l` prints it: `SHA256:` and the unpadded base64 of the blob's SHA-256. */
export function keyFingerprint(key: Buffer): string {
  return `SHA256:${createHash('sha256').update(key).digest('base64').replace(/=+$/, '')}`;
}

/** The type a key blob names in its first field (an SSH string); null when it is no key blob. */
export function blobKeyType(key: Buffer): string | null {
  if (key.length < 4) return null;
  const length = key.readUInt32BE(0);
  if (length === 0 || length > 64 || key.length < 4 + length) return null;
  const type = key.subarray(4, 4 + length).toString('latin1');
  return /^[\x21-\x7e]+$/.test(type) ? type : null;
}

/** `|1|salt|hmac`: HMAC-SHA1 keyed by the salt over the name, both base64. */
function hashedNameMatches(field: string, name: string): boolean {
  const [, , salt, hash] = field.split('|');
  if (salt === undefined || hash === undefined) return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = createHmac('sha1', Buffer.from(salt, 'base64')).update(name).digest();
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/** OpenSSH's match_pattern: `*` any run of characters, `?` any one, the rest literally. */
function wildcardMatches(pattern: string, name: string): boolean {
  const regex = escapeRegExp(pattern).replaceAll('\\*', '.*').replaceAll('\\?', '.');
  return new RegExp(`^${regex}$`, 's').test(name);
}
