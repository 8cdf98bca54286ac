/**
 * The host key check of an ssh:// sandbox host (issue 26): strict, re-reading its known_hosts at every connection,
 * and saying why it refused a key in words an operator can act on, with the key's fingerprint and never the key.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SshHostKeyCheck } from '../../src/sandbox/docker/ssh-host-key-check.js';
import { tempDir } from '../fixtures/temp-dir.js';

describe('SshHostKeyCheck', () => {
  const dir = tempDir('errand-host-key-check-');
  const knownHostsFile = join(dir.path, 'known_hosts');
  const keys: { line: string; blob: Buffer; fingerprint: string }[] = [];

  beforeAll(() => {
    for (const [name, type] of [['a', 'ed25519'], ['b', 'ed25519'], ['c', 'ecdsa']] as const) {
      const path = join(dir.path, name);
      execFileSync('ssh-keygen', ['-q', '-t', type, '-N', '', '-C', '', '-f', path]);
      const line = readFileSync(`${path}.pub`, 'utf8').trim();
      const fingerprint = execFileSync('ssh-keygen', ['-l', '-f', `${path}.pub`], { encoding: 'utf8' }).split(' ')[1]!;
      keys.push({ line, blob: Buffer.from(line.split(' ')[1]!, 'base64'), fingerprint });
    }
  });
  afterAll(() => dir.remove());

  it('accepts a listed key and refuses an unlisted one, saying how to add it after checking the fingerprint', () => {
    const [a, b] = [keys[0]!, keys[1]!];
    writeFileSync(knownHostsFile, `10.0.0.2 ${a.line}\n`);
    const check = new SshHostKeyCheck({ host: '10.0.0.9', port: 22, knownHostsFile });
    expect(check.verify(a.blob)).toBe(false);
    expect(check.refusal).toBe(
      `the host key of 10.0.0.9:22 (ssh-ed25519 ${a.fingerprint}) is not in ${knownHostsFile}: add it with \`ssh-keyscan -p 22 10.0.0.9 >> ${knownHostsFile}\`, ` +
        'after checking its fingerprint on the host (`ssh-keygen -lf /etc/ssh/ssh_host_ed25519_key.pub`)',
    );
    // The file is read again at each connection: a key added now counts at once, and clears the refusal.
    writeFileSync(knownHostsFile, `10.0.0.9 ${a.line}\n`);
    expect(check.verify(a.blob)).toBe(true);
    expect(check.refusal).toBeNull();
    expect(check.verify(b.blob)).toBe(false);
    expect(check.refusal).not.toContain(b.line.split(' ')[1]);
    // The host's public key file to compare with is the one of the type it presented.
    expect(check.verify(keys[2]!.blob)).toBe(false);
    expect(check.refusal).toMatch(/^the host key of 10\.0\.0\.9:22 \(ecdsa-sha2-nistp256 SHA256:\S+\) is not in .*\(`ssh-keygen -lf \/etc\/ssh\/ssh_host_ecdsa_key\.pub`\)$/);
  });

  it('explains a failed call by the key it refused, unless the host was not reached at all', () => {
    const a = keys[0]!;
    writeFileSync(knownHostsFile, '');
    const check = new SshHostKeyCheck({ host: '10.0.0.2', port: 22, knownHostsFile });
    expect(check.explain(new Error('connect ECONNREFUSED 10.0.0.2:22'))).toBe('connect ECONNREFUSED 10.0.0.2:22');
    check.verify(a.blob);
    // ssh2's own words for the refusal say nothing of why.
    expect(check.explain(Object.assign(new Error('Host denied (verification failed)'), { level: 'handshake' }))).toBe(check.refusal);
    expect(check.explain(Object.assign(new Error('connect EHOSTUNREACH 10.0.0.2:22'), { level: 'client-socket' }))).toBe('connect EHOSTUNREACH 10.0.0.2:22');
    expect(check.explain(Object.assign(new Error('Timed out while waiting for handshake'), { level: 'client-timeout' }))).toBe('Timed out while waiting for handshake');
  });

  it('calls a changed key a possible man-in-the-middle, naming the line and how to replace it', () => {
    const [a, b] = [keys[0]!, keys[1]!];
    writeFileSync(knownHostsFile, `# lab\n[10.0.0.2]:2222 ${a.line}\n`);
    const check = new SshHostKeyCheck({ host: '10.0.0.2', port: 2222, knownHostsFile });
    expect(check.verify(b.blob)).toBe(false);
    expect(check.refusal).toBe(
      `the host key of 10.0.0.2:2222 (ssh-ed25519 ${b.fingerprint}) does not match the one ${knownHostsFile} lists for it on line 2: possibly a man-in-the-middle. ` +
        `If the host's key was changed on purpose, check its new fingerprint on the host, then replace the old one (\`ssh-keygen -R '[10.0.0.2]:2222' -f ${knownHostsFile}\`, then ssh-keyscan)`,
    );
  });

  it('refuses a revoked key, and every key while its known_hosts cannot be read', () => {
    const a = keys[0]!;
    writeFileSync(knownHostsFile, `10.0.0.2 ${a.line}\n@revoked 10.0.0.2 ${a.line}\n`);
    const check = new SshHostKeyCheck({ host: '10.0.0.2', port: 22, knownHostsFile });
    expect(check.verify(a.blob)).toBe(false);
    expect(check.refusal).toBe(`the host key of 10.0.0.2:22 (ssh-ed25519 ${a.fingerprint}) is revoked in ${knownHostsFile} (line 2): the host is not used with it`);
    rmSync(knownHostsFile);
    expect(check.verify(a.blob)).toBe(false);
    expect(check.refusal).toMatch(/^the host key of 10\.0\.0\.2:22 \(ssh-ed25519 SHA256:\S+\) cannot be checked: known_hosts .* cannot be read \(ENOENT/);
    expect(check.knownKeyTypes()).toEqual([]);
  });
});
