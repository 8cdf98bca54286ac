import type Docker from 'dockerode';
import { SandboxError } from '../sandbox-error.js';

/** The runtime sandboxes run under: the one asked for (passed to each container), and its name as reports show it. */
export interface SandboxRuntime {
  /** What each container's HostConfig.Runtime names; null: the engine's default. */
  requested: string | null;
  name: string;
}

/**
 * Checks that the engine has the runtime `sandbox.runtime` names (a runtime the engine lacks fails each container at
 * its start, with an error that does not say why), and finds the default's name when none is named.
 */
export async function sandboxRuntime(docker: Docker, requested: string | null): Promise<SandboxRuntime> {
  let info: { Runtimes?: Record<string, unknown>; DefaultRuntime?: string };
  try {
    info = (await docker.info()) as typeof info;
  } catch (error) {
    throw new SandboxError(`the Docker engine did not say which runtimes it has: ${error instanceof Error ? error.message : String(error)}`);
  }
  const registered = Object.keys(info.Runtimes ?? {});
  if (requested !== null && !registered.includes(requested)) {
    throw new SandboxError(
      `sandbox.runtime is ${requested}, but the Docker engine has no runtime of that name (it has ${registered.join(', ') || 'none'}); ` +
        'register it in /etc/docker/daemon.json and reload dockerd (docs/operations.md, "gVisor")',
    );
  }
  return { requested, name: requested ?? info.DefaultRuntime ?? 'runc' };
}
