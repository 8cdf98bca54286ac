import type { Command } from 'commander';
import type { SandboxStatus } from '../../../src/sandbox/docker/sandbox-status.js';
import { contextOf, type CliContext } from '../../context.js';
import { examples } from '../../help.js';
import { configuredSandboxImage } from './sandbox-image.js';

export function registerSandboxStatus(sandbox: Command): void {
  sandbox
    .command('status')
    .description('say whether a Docker engine is reachable and the sandbox image is built')
    .addHelpText('after', examples('errand sandbox status', 'errand sandbox status --json'))
    .action(async (_flags: unknown, cmd: Command) => {
      await showSandboxStatus(contextOf(cmd));
    });
}

export async function showSandboxStatus(ctx: CliContext): Promise<SandboxStatus> {
  const status = await probeSandbox(configuredSandboxImage(ctx.home, ctx.env));
  ctx.out.result(status, () => {
    const { engine, image } = status;
    ctx.out.line(engine.reachable ? `engine: reachable (Docker ${engine.version})` : `engine: not reachable (${engine.error})`);
    if (engine.reachable) {
      ctx.out.line(image.present ? `image:  ${image.name} present (${image.id?.slice(7, 19)}, built ${image.createdAt})` : `image:  ${image.name} not built (${ctx.cliName} sandbox build --offline, or without --offline to pull the base image)`);
    }
  });
  return status;
}

/** Asks the Docker engine (DOCKER_HOST or the default socket) about itself and the image; loads dockerode lazily. */
export async function probeSandbox(image: string): Promise<SandboxStatus> {
  const [{ default: Docker }, { sandboxStatus }] = await Promise.all([import('dockerode'), import('../../../src/sandbox/docker/sandbox-status.js')]);
  return sandboxStatus({ docker: new Docker(), image });
}
