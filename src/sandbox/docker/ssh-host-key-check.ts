import { readFileSync } from 'node:fs';
import { blobKeyType, keyFingerprint, knownHostsName, knownKeyTypes, parseKnownHosts, verifyHostKey, type KnownHostsEntry } from './known-hosts.js';

/**
 * The host key check of one `ssh://` host of `sandbox.hosts`, strict as ssh's `StrictHostKeyChecking yes`: a key its
 * known_hosts file does not list for the host is refused, and so is a revoked one. The file is read again for every
 * connection, so that a key the operator adds takes effect at the host's next check, without a restart.
 */
export class SshHostKeyCheck {
  /** Why the last key the host presented was refused, in the operator's words; null once one was accepted. */
  refusal: string | null = null;

  constructor(
    private readonly options: {
      /** The host as the URL names it (no brackets around an IPv6 address). */
      host: string;
      port: number;
      knownHostsFile: string;
    },
  ) {}

  /** ssh2's `hostVerifier`: `key` is the blob the host presented. */
  verify(key: Buffer): boolean {
    const { host, port, knownHostsFile: file } = this.options;
    const type = blobKeyType(key);
    const presented = `${host}:${port} (${type ?? 'unknown type'} ${keyFingerprint(key)})`;
    let entries: KnownHostsEntry[];
    try {
      entries = this.entries();
    } catch (error) {
      this.refusal = `the host key of ${presented} cannot be checked: known_hosts ${file} cannot be read (${(error as Error).message})`;
      return false;
    }
    const verdict = verifyHostKey(entries, host, port, key);
    const name = knownHostsName(host, port);
    switch (verdict.verdict) {
      case 'known':
        this.refusal = null;
        return true;
      case 'unknown':
        this.refusal =
          `the host key of ${presented} is not in ${file}: add it with \`ssh-keyscan -p ${port} ${host} >> ${file}\`, ` +
          `after checking its fingerprint on the host (\`ssh-keygen -lf ${hostKeyFile(type)}\`)`;
        return false;
      case 'changed':
        this.refusal =
          `the host key of ${presented} does not match the one ${file} lists for it on line ${verdict.line}: possibly a man-in-the-middle. ` +
          `If the host's key was changed on purpose, check its new fingerprint on the host, then replace the old one (\`ssh-keygen -R '${name}' -f ${file}\`, then ssh-keyscan)`;
        return false;
      case 'revoked':
        this.refusal = `the host key of ${presented} is revoked in ${file} (line ${verdict.line}): the host is not used with it`;
        return false;
      default:
        return verdict satisfies never;
    }
  }

  /**
   * What a failed call to the host means: the last refusal, unless ssh2 says the host was not reached at all (the
   * `level` it gives a socket error, or its ready timeout), which a key refused earlier must not hide.
   */
  explain(error: unknown): string {
    const level = typeof error === 'object' && error !== null ? (error as { level?: unknown }).level : undefined;
    const message = error instanceof Error ? error.message : String(error);
    return this.refusal === null || level === 'client-socket' || level === 'client-timeout' ? message : this.refusal;
  }

  /** The key types the file lists for the host (none when it cannot be read): the ones to ask the host for first. */
  knownKeyTypes(): string[] {
    try {
      return knownKeyTypes(this.entries(), this.options.host, this.options.port);
    } catch {
      return [];
    }
  }

  private entries(): KnownHostsEntry[] {
    return parseKnownHosts(readFileSync(this.options.knownHostsFile, 'utf8'));
  }
}

/** Where OpenSSH's sshd keeps its public host key of this type, by default. */
function hostKeyFile(type: string | null): string {
  const name = type === 'ssh-ed25519' ? 'ed25519' : type === 'ssh-rsa' ? 'rsa' : type?.startsWith('ecdsa-') ? 'ecdsa' : '*';
  return `/etc/ssh/ssh_host_${name}_key.pub`;
}
