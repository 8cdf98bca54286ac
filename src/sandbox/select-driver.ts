import Docker from 'dockerode';
import type { Logger } from 'pino';
import type { Config } from '../config/schema.js';
import { ConfigError } from '../errors.js';
import type { ContainerLimits } from './docker/container-spec.js';
import { DockerDriver } from './docker/docker-driver.js';
import { HostSetDriver } from './docker/host-set-driver.js';
import { engineForHost, parseSandboxHosts } from './docker/sandbox-hosts.js';
import { sandboxStatus } from './docker/sandbox-status.js';
import { LOCAL_HOST, type SandboxDriver } from './driver.js';
import { LocalDriver } from './local/local-driver.js';
import { SandboxError } from './sandbox-error.js';

export interface SelectDriverOptions {
  config: Config;
  /** The data directory. */
  home: string;
  logger: Logger;
  /** The engine to use; by default the one DOCKER_HOST (or /var/run/docker.sock) points at. */
  docker?: Docker;
}

/**
 * The driver `sandbox.driver` asks for. `docker` fails with a `SandboxError` saying what is missing; `auto` takes
 * docker when an engine answers and the image is built, and otherwise the local driver, with a warning that says why.
 */
export async function selectDriver(options: SelectDriverOptions): Promise<SandboxDriver> {
  const { config, logger } = options;
  const local = (): LocalDriver =>
    new LocalDriver({ home: options.home, chromiumPath: config['sandbox.chromium_path'], logger });
  const choice = config['sandbox.driver'];
  const hosts = config['sandbox.hosts'];
  // What docker sandboxes are, on one engine or several.
  const sandboxes = {
    image: config['sandbox.image'],
    home: options.home,
    logger,
    limits: containerLimits(config),
    warmPoolSize: config['sandbox.warm_pool_size'],
    warmPoolBrowser: config['sandbox.warm_pool_browser'],
    runtime: config['sandbox.runtime'],
  };
  if (hosts !== null) {
    if (choice === 'local') throw new ConfigError('sandbox.hosts', 'names Docker engines, but sandbox.driver is local');
    return HostSetDriver.start({
      ...sandboxes,
      hosts: parseSandboxHosts(hosts, { memoryMbPerRun: config['sandbox.memory_mb'] }),
      engineFor: (host) => engineForHost(host, { sshAgent: process.env.SSH_AUTH_SOCK }),
      checkMs: config['sandbox.host_check_ms'],
    });
  }
  if (choice === 'local') return local();

  const docker = options.docker ?? new Docker();
  const { image } = sandboxes;
  try {
    const status = await sandboxStatus({ docker, image });
    if (!status.engine.reachable) throw new SandboxError(`no Docker engine is reachable (${status.engine.error ?? 'no answer'})`);
    if (!status.image.present) throw new SandboxError(`the sandbox image ${image} is missing; build it with \`errand sandbox build --offline\` (or without --offline where a registry is reachable)`);
    return await DockerDriver.start({
      ...sandboxes,
      docker,
      host: {
        name: LOCAL_HOST,
        url: process.env.DOCKER_HOST ?? 'unix:///var/run/docker.sock',
        capacity: { runs: config['limits.max_concurrent_runs'], memoryMb: config['limits.max_concurrent_runs'] * config['sandbox.memory_mb'] },
        labels: [],
        firewall: 'auto',
      },
    });
  } catch (error) {
    if (choice === 'docker' || !(error instanceof SandboxError)) {
      if (error instanceof SandboxError) throw new SandboxError(`sandbox.driver is docker, but ${error.message}`, { cause: error });
      throw error;
    }
    logger.warn(
      { reason: error.message },
      `docker sandboxes unavailable (${error.message}); running sandboxes with the local driver, which does not isolate them: task code runs as the daemon's user and can read its environment and data directory`,
    );
    return local();
  }
}

function containerLimits(config: Config): ContainerLimits {
  return { memoryMb: config['sandbox.memory_mb'], cpus: config['sandbox.cpus'], pidsLimit: config['sandbox.pids_limit'] };
}
