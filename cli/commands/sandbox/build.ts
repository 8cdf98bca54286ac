import { Option, type Command } from 'commander';
import type { BuiltImage } from '../../../src/sandbox/docker/build-sandbox-image.js';
import { contextOf, type CliContext } from '../../context.js';
import { examples } from '../../help.js';
import { configuredSandboxImage } from './sandbox-image.js';

export interface BuildSandboxOptions {
  base?: string;
  offline: boolean;
  image?: string;
}

export function registerSandboxBuild(sandbox: Command): void {
  sandbox
    .command('build')
    .description('build the docker sandbox image (Chromium, Node, Python and the supervisor)')
    .addOption(new Option('--base <image>', 'base image (default debian:bookworm-slim)').conflicts('offline'))
    .option('--offline', 'no registry reachable: make a Debian base with debootstrap and docker import, then build on it')
    .option('--image <name>', 'tag of the built image (default: config sandbox.image)')
    .addHelpText('after', examples('errand sandbox build', 'errand sandbox build --offline   # no registry: a debootstrap base'))
    .action(async (flags: { base?: string; offline?: boolean; image?: string }, cmd: Command) => {
      await buildSandbox(contextOf(cmd), { ...flags, offline: flags.offline === true });
    });
}

/** Build output streams to stderr line by line; stdout gets only the result. */
export async function buildSandbox(ctx: CliContext, options: BuildSandboxOptions): Promise<void> {
  const abort = new AbortController();
  const onInt = () => abort.abort();
  process.on('SIGINT', onInt);
  // dockerode and the build code load only for this command: every other command starts faster without them.
  const [{ default: Docker }, { buildSandboxImage }] = await Promise.all([import('dockerode'), import('../../../src/sandbox/docker/build-sandbox-image.js')]);
  let built: BuiltImage;
  try {
    built = await buildSandboxImage({
      docker: new Docker(),
      onLog: (line) => ctx.out.note(line),
      image: options.image ?? configuredSandboxImage(ctx.home, ctx.env),
      ...(options.base === undefined ? {} : { base: options.base }),
      offline: options.offline,
      signal: abort.signal,
    });
  } finally {
    process.off('SIGINT', onInt);
  }
  ctx.out.result(built, () => ctx.out.line(`built ${built.image} on ${built.base} (${built.id})`));
}
