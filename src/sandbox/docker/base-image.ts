import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Docker from 'dockerode';
import { execa } from 'execa';
import { SandboxError } from '../sandbox-error.js';
import { hostDebianMirror } from './apt-mirror.js';
import { followProgress } from './follow-progress.js';
import { imageExists } from './image-exists.js';
import { SANDBOX_LABEL } from './labels.js';
import { runLogged, type LogLine } from './run-logged.js';

export const OFFLINE_BASE_IMAGE = 'errand-base:bookworm';
const SUITE = 'bookworm';

export interface EnsureBaseImageOptions {
  docker: Docker;
  onLog: LogLine;
  name?: string;
  /** Debian mirror; defaults to the one this host's apt uses for bookworm. */
  mirror?: string;
  signal?: AbortSignal;
}

/**
 * A Debian bookworm base image made without any container registry: debootstrap a minimal root filesystem from a
 * Debian mirror and import it. Kept under its name, so only the first offline build pays for debootstrap.
 */
export async function ensureBaseImage(options: EnsureBaseImageOptions): Promise<string> {
  const name = options.name ?? OFFLINE_BASE_IMAGE;
  if (await imageExists(options.docker, name)) {
    options.onLog(`base image ${name} already present`);
    return name;
  }
  if (process.getuid?.() !== 0) {
    throw new SandboxError(`building the base image ${name} offline runs debootstrap, which needs root`);
  }
  const mirror = options.mirror ?? hostDebianMirror(SUITE);
  const work = await mkdtemp(join(tmpdir(), 'errand-debootstrap-'));
  const rootfs = join(work, 'rootfs');
  try {
    options.onLog(`debootstrap ${SUITE} from ${mirror} (takes a few minutes)`);
    try {
      await runLogged('debootstrap', ['--variant=minbase', SUITE, rootfs, mirror], options.onLog, withSignal(options.signal));
    } catch (error) {
      throw new SandboxError(`debootstrap failed (is it installed and is ${mirror} reachable?): ${messageOf(error)}`);
    }
    options.onLog(`importing ${rootfs} as ${name}`);
    const tar = execa('tar', ['-C', rootfs, '--numeric-owner', '-c', '.'], {
      stdin: 'ignore',
      buffer: { stdout: false },
      ...withCancel(options.signal),
    });
    const [repo, tag] = splitName(name);
    const progress = await options.docker.importImage(tar.stdout, { repo, tag, changes: `LABEL ${SANDBOX_LABEL}=1` });
    await Promise.all([followProgress(options.docker, progress, options.onLog), tar]);
    return name;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

function splitName(name: string): [string, string] {
  const colon = name.lastIndexOf(':');
  if (colon <= name.lastIndexOf('/')) return [name, 'latest'];
  return [name.slice(0, colon), name.slice(colon + 1)];
}

function withSignal(signal: AbortSignal | undefined): { signal?: AbortSignal } {
  return signal === undefined ? {} : { signal };
}

function withCancel(signal: AbortSignal | undefined): { cancelSignal?: AbortSignal } {
  return signal === undefined ? {} : { cancelSignal: signal };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
