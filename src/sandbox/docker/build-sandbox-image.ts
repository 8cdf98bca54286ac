import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Docker from 'dockerode';
import { execa } from 'execa';
import { packageRoot } from '../../package-root.js';
import { SandboxError } from '../sandbox-error.js';
import { ensureBaseImage } from './base-image.js';
import { stageBuildContext } from './build-context.js';
import { followProgress } from './follow-progress.js';
import { SANDBOX_LABEL } from './labels.js';
import type { LogLine } from './run-logged.js';

export const DEFAULT_SANDBOX_IMAGE = 'errand-sandbox:latest';
export const ONLINE_BASE_IMAGE = 'debian:bookworm-slim';

export interface BuildSandboxImageOptions {
  docker: Docker;
  onLog: LogLine;
  /** Tag of the built image (`sandbox.image`). */
  image?: string;
  /** Base image; defaults to debian:bookworm-slim, or to a debootstrapped one when `offline`. */
  base?: string;
  /** Build without a container registry: debootstrap and import a base image (once), then build on it. */
  offline?: boolean;
  /** Where the Dockerfile, compiled supervisor and node_modules are; defaults to this package. */
  root?: string;
  signal?: AbortSignal;
}

export interface BuiltImage {
  image: string;
  base: string;
  id: string;
}

/**
 * Builds the sandbox image from `templates/sandbox/Dockerfile` and a staged context, streaming the build output to
 * `onLog`. Failures are `SandboxError`s that carry the build's own message.
 */
export async function buildSandboxImage(options: BuildSandboxImageOptions): Promise<BuiltImage> {
  const image = options.image ?? DEFAULT_SANDBOX_IMAGE;
  const context = await mkdtemp(join(tmpdir(), 'errand-image-'));
  try {
    const base =
      options.base ??
      (options.offline
        ? await ensureBaseImage({ docker: options.docker, onLog: options.onLog, ...withSignal(options.signal) })
        : ONLINE_BASE_IMAGE);
    stageBuildContext(options.root ?? packageRoot(), context);
    options.onLog(`building ${image} on ${base}`);
    const tar = execa('tar', ['-C', context, '-c', '.'], {
      stdin: 'ignore',
      buffer: { stdout: false },
      ...(options.signal === undefined ? {} : { cancelSignal: options.signal }),
    });
    const progress = await options.docker.buildImage(tar.stdout, {
      t: image,
      buildargs: { BASE: base },
      labels: { [SANDBOX_LABEL]: '1' },
      rm: true,
      forcerm: true,
      ...(options.signal === undefined ? {} : { abortSignal: options.signal }),
    });
    await Promise.all([followProgress(options.docker, progress, options.onLog), tar]);
    const inspected = await options.docker.getImage(image).inspect();
    options.onLog(`built ${image} (${inspected.Id.slice(7, 19)})`);
    return { image, base, id: inspected.Id };
  } catch (error) {
    if (error instanceof SandboxError) throw error;
    throw new SandboxError(`building ${image} failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  } finally {
    await rm(context, { recursive: true, force: true });
  }
}

function withSignal(signal: AbortSignal | undefined): { signal?: AbortSignal } {
  return signal === undefined ? {} : { signal };
}
