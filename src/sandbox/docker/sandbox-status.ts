import type Docker from 'dockerode';
import { isNotFound } from './image-exists.js';

export interface SandboxStatus {
  engine: { reachable: boolean; version: string | null; error: string | null };
  image: { name: string; present: boolean; id: string | null; createdAt: string | null; sizeBytes: number | null };
}

/** Whether docker sandboxes can run here: is an engine reachable, and is the sandbox image built? */
export async function sandboxStatus(options: { docker: Docker; image: string }): Promise<SandboxStatus> {
  const image: SandboxStatus['image'] = { name: options.image, present: false, id: null, createdAt: null, sizeBytes: null };
  let version: string;
  try {
    version = (await options.docker.version()).Version;
  } catch (error) {
    return { engine: { reachable: false, version: null, error: messageOf(error) }, image };
  }
  try {
    const inspected = await options.docker.getImage(options.image).inspect();
    Object.assign(image, { present: true, id: inspected.Id, createdAt: inspected.Created, sizeBytes: inspected.Size });
  } catch (error) {
    if (!isNotFound(error)) return { engine: { reachable: true, version, error: messageOf(error) }, image };
  }
  return { engine: { reachable: true, version, error: null }, image };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
