/**
 * known_hosts read as OpenSSH's client reads it with `StrictHostKeyChecking yes` (issue 26): the keys are made by
 * ssh-keygen and the hashed line hashed by `ssh-keygen -H`, so that what is checked is OpenSSH's format, not ours.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyFingerprint, knownKeyTypes, parseKnownHosts, verifyHostKey } from '../../src/sandbox/docker/known-hosts.js';
import { tempDir } from '../fixtures/temp-dir.js';

const dir = tempDir('errand-known-hosts-');
/** A key as ssh-keygen made it: its known_hosts form (`type base64`) and the blob a server presents. */
interface Key {
  line: string;
  blob: Buffer;
  fingerprint: string;
}
const keys: Record<'a' | 'b' | 'ecdsa', Key> = {} as never;

function makeKey(name: string, type: string): Key {
  const path = join(dir.path, name);
  execFileSync('ssh-keygen', ['-q', '-t', type, '-N', '', '-C', '', '-f', path]);
  const line = readFileSync(`${path}.pub`, 'utf8').trim().split(' ').slice(0, 2).join(' ');
  const fingerprint = execFileSync('ssh-keygen', ['-l', '-f', `${path}.pub`], { encoding: 'utf8' }).split(' ')[1]!;
  return { line, blob: Buffer.from(line.split(' ')[1]!, 'base64'), fingerprint };
}

beforeAll(() => {
  keys.a = makeKey('a', 'ed25519');
  keys.b = makeKey('b', 'ed25519');
  keys.ecdsa = makeKey('ecdsa', 'ecdsa');
});
afterAll(() => dir.remove());

const verdict = (file: string, host: string, port: number, key: Key) => verifyHostKey(parseKnownHosts(file), host, port, key.blob).verdict;

describe('known_hosts', () => {
  it('knows a key listed for a plain host name, on port 22 only, and no other host', () => {
    const file = `10.0.0.2 ${keys.a.line}\n`;
    expect(verdict(file, '10.0.0.2', 22, keys.a)).toBe('known');
    expect(verdict(file, '10.0.0.3', 22, keys.a)).toBe('unknown');
    expect(verdict(file, '10.0.0.2', 2222, keys.a)).toBe('unknown');
  });

  it('reads comma lists of host names, in any letter case', () => {
    const file = `far.example,10.0.0.2 ${keys.a.line}\n`;
    expect(verdict(file, 'far.example', 22, keys.a)).toBe('known');
    expect(verdict(file, 'FAR.Example', 22, keys.a)).toBe('known');
    expect(verdict(file, '10.0.0.2', 22, keys.a)).toBe('known');
    expect(verdict(file, 'near.example', 22, keys.a)).toBe('unknown');
  });

  it('knows [host]:port for that port alone', () => {
    const file = `[10.0.0.2]:2222 ${keys.a.line}\n`;
    expect(verdict(file, '10.0.0.2', 2222, keys.a)).toBe('known');
    expect(verdict(file, '10.0.0.2', 22, keys.a)).toBe('unknown');
    expect(verdict(file, '10.0.0.2', 2223, keys.a)).toBe('unknown');
  });

  it('reads the names ssh-keygen -H hashed, for plain and [host]:port names alike', () => {
    const path = join(dir.path, 'hashed');
    writeFileSync(path, `10.0.0.2 ${keys.a.line}\n[far.example]:2222 ${keys.b.line}\n`);
    execFileSync('ssh-keygen', ['-H', '-f', path], { stdio: 'ignore' });
    const file = readFileSync(path, 'utf8');
    expect(file).not.toContain('10.0.0.2');
    expect(file.split('\n').filter((line) => line.startsWith('|1|'))).toHaveLength(2);
    expect(verdict(file, '10.0.0.2', 22, keys.a)).toBe('known');
    expect(verdict(file, 'far.example', 2222, keys.b)).toBe('known');
    expect(verdict(file, 'far.example', 22, keys.b)).toBe('unknown');
    expect(verdict(file, '10.0.0.3', 22, keys.a)).toBe('unknown');
    // The hashed name is the host's: another key of its type there is a changed key, as with a plain name.
    expect(verdict(file, '10.0.0.2', 22, keys.b)).toBe('changed');
  });

  it('matches * and ? wildcards, and a ! pattern rules its names out of the line', () => {
    const file = `*.example,!bad.example ${keys.a.line}\n10.0.0.? ${keys.b.line}\n`;
    expect(verdict(file, 'a.example', 22, keys.a)).toBe('known');
    expect(verdict(file, 'a.b.example', 22, keys.a)).toBe('known');
    expect(verdict(file, 'bad.example', 22, keys.a)).toBe('unknown');
    expect(verdict(file, 'example', 22, keys.a)).toBe('unknown');
    expect(verdict(file, '10.0.0.7', 22, keys.b)).toBe('known');
    expect(verdict(file, '10.0.0.17', 22, keys.b)).toBe('unknown');
    // A literal dot, not any character.
    expect(verdict(file, '10x0.0.7', 22, keys.b)).toBe('unknown');
  });

  it('refuses a revoked key even where another line lists it for the host', () => {
    const file = `10.0.0.2 ${keys.a.line}\n@revoked * ${keys.a.line}\n`;
    expect(verifyHostKey(parseKnownHosts(file), '10.0.0.2', 22, keys.a.blob)).toEqual({ verdict: 'revoked', line: 2 });
    expect(verdict(`10.0.0.2 ${keys.a.line}\n@revoked other.example ${keys.a.line}\n`, '10.0.0.2', 22, keys.a)).toBe('known');
  });

  it('tells a host it has no key for (unknown) from a host whose key of that type differs (changed), naming the line', () => {
    const file = `# the lab\n\n10.0.0.2 ${keys.a.line}\n`;
    expect(verifyHostKey(parseKnownHosts(file), '10.0.0.2', 22, keys.b.blob)).toEqual({ verdict: 'changed', line: 3 });
    // A key of another type than the file lists: not a changed key, an unknown one, as ssh says.
    expect(verdict(file, '10.0.0.2', 22, keys.ecdsa)).toBe('unknown');
    expect(verdict(file, '10.0.0.9', 22, keys.b)).toBe('unknown');
  });

  it('skips comments, blank lines, @cert-authority lines and lines it cannot read, counting lines as the file does', () => {
    const file = [
      '# comment',
      '',
      `@cert-authority * ${keys.a.line}`,
      '10.0.0.2 ssh-ed25519 not-base64-of-a-key',
      `10.0.0.2 ssh-rsa ${keys.a.line.split(' ')[1]}`,
      '10.0.0.2',
      `  10.0.0.2 ${keys.b.line} a comment  `,
    ].join('\n');
    const entries = parseKnownHosts(file);
    expect(entries.map((entry) => [entry.line, entry.keyType])).toEqual([[7, 'ssh-ed25519']]);
    expect(verdict(file, '10.0.0.2', 22, keys.a)).toBe('changed');
    expect(verdict(file, '10.0.0.2', 22, keys.b)).toBe('known');
  });

  it('lists the key types it knows for a host, in file order, to ask the host for first', () => {
    const file = `10.0.0.2 ${keys.ecdsa.line}\n10.0.0.2 ${keys.a.line}\n10.0.0.2 ${keys.b.line}\n@revoked 10.0.0.2 ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAAAAQC7\n`;
    expect(knownKeyTypes(parseKnownHosts(file), '10.0.0.2', 22)).toEqual(['ecdsa-sha2-nistp256', 'ssh-ed25519']);
    expect(knownKeyTypes(parseKnownHosts(file), '10.0.0.3', 22)).toEqual([]);
  });

  it('prints a fingerprint as ssh-keygen -l does', () => {
    expect(keyFingerprint(keys.a.blob)).toBe(keys.a.fingerprint);
    expect(keyFingerprint(keys.ecdsa.blob)).toBe(keys.ecdsa.fingerprint);
  });
});
