import type Docker from 'dockerode';
import { SandboxError } from '../sandbox-error.js';
import { followProgress } from './follow-progress.js';
import { imageExists, isNotFound } from './image-exists.js';
import type { LogLine } from './run-logged.js';

export interface CopiedImage {
  image: string;
  id: string;
  /** False when the target engine had that very image already. */
  copied: boolean;
}

/**
 * Puts the sandbox image of one engine on another (`errand sandbox build --host`, issue 26): `docker save` from
 * `from` streamed into `docker load` on `to`, nothing written to disk in between. Nothing is copied when `to` has the
 * same image id already.
 */
export async function copyImage(options: { from: Docker; to: Docker; image: string; onLog: LogLine }): Promise<CopiedImage> {
  const { from, to, image } = options;
  if (!(await imageExists(from, image))) throw new SandboxError(`the image ${image} is not on the local engine to copy`);
  const id = (await from.getImage(image).inspect()).Id;
  // Only a 404 means it is not there: an engine that cannot be reached fails here, before the image is streamed.
  const present = await to
    .getImage(image)
    .inspect()
    .then((inspected) => inspected.Id)
    .catch((error: unknown) => {
      if (isNotFound(error)) return null;
      throw error;
    });
  if (present === id) return { image, id, copied: false };
  const saved = (await from.getImage(image).get()) as NodeJS.ReadableStream;
  const loading = (await to.loadImage(saved, { quiet: false })) as NodeJS.ReadableStream;
  await followProgress(to, loading, options.onLog);
  const loaded = (await to.getImage(image).inspect()).Id;
  if (loaded !== id) throw new SandboxError(`the engine loaded ${image} as ${loaded}, not ${id}`);
  return { image, id, copied: true };
}
