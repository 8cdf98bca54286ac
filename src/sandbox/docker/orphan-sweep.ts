import type Docker from 'dockerode';
import type { Logger } from 'pino';
import { isNotFound } from './image-exists.js';
import { SANDBOX_LABEL } from './labels.js';
import { orphanReason, type OrphanJudge } from './orphans.js';

/**
 * Removes the containers on `docker` labelled as Errand's (sandboxes, and the firewall helpers of `host-firewall.ts`)
 * that are provably nobody's (see `orphans.ts`), logging each by name, and leaves every other installation's alone.
 * Answers how many it removed.
 */
export async function sweepOrphans(docker: Docker, judge: OrphanJudge, logger: Logger): Promise<number> {
  const containers = await docker.listContainers({ all: true, filters: { label: [`${SANDBOX_LABEL}=1`] } });
  const orphans = containers.flatMap((container) => {
    const reason = orphanReason(container.Labels, judge);
    return reason === null ? [] : [{ container, reason }];
  });
  const removed = await Promise.all(
    orphans.map(async ({ container, reason }) => {
      if (!(await removeContainer(docker, container.Id, logger))) return false;
      logger.info({ container: containerName(container), reason }, 'removed orphaned sandbox container');
      return true;
    }),
  );
  const count = removed.filter(Boolean).length;
  logger.info({ removed: count, kept: containers.length - orphans.length }, 'checked the engine for orphaned sandbox containers');
  return count;
}

/** Removes a container; answers false (and warns) when it is still there. */
export async function removeContainer(docker: Docker, id: string, logger: Logger): Promise<boolean> {
  try {
    await docker.getContainer(id).remove({ force: true, v: true });
  } catch (error) {
    // Gone already, or being removed by someone else.
    if (isNotFound(error) || (error as { statusCode?: unknown }).statusCode === 409) return true;
    logger.warn({ err: error, container: id }, 'removing sandbox container failed');
    return false;
  }
  return true;
}

/** A container's name as `docker ps` shows it. */
function containerName(container: Docker.ContainerInfo): string {
  return container.Names[0]?.replace(/^\//, '') ?? container.Id.slice(0, 12);
}
