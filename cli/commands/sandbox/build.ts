import { Option, type Command } from 'commander';
import type { BuiltImage } from '../../../src/sandbox/docker/build-sandbox-image.js';
import { UsageError, UserError } from '../../cli-errors.js';
import { contextOf, type CliContext } from '../../context.js';
import { examples } from '../../help.js';
import { configuredSandboxImage } from './sandbox-image.js';

export interface BuildSandboxOptions {
  base?: string;
  offline: boolean;
  image?: string;
  /** A host of sandbox.hosts: the image is built here (unless built already) and loaded into that engine. */
  host?: string;
}

export function registerSandboxBuild(sandbox: Command): void {
  sandbox
    .command('build')
    .description('build the docker sandbox image (Chromium, Node, Python and the supervisor)')
    .addOption(new Option('--base <image>', 'base image (default debian:bookworm-slim)').conflicts('offline'))
    .option('--offline', 'no registry reachable: make a Debian base with debootstrap and docker import, then build on it')
    .option('--image <name>', 'tag of the built image (default: config sandbox.image)')
    .option('--host <name>', 'put the image on this host of sandbox.hosts: built here unless it is, then loaded into that engine')
    .addHelpText(
      'after',
      examples('errand sandbox build', 'errand sandbox build --offline   # no registry: a debootstrap base', 'errand sandbox build --offline --host big   # and load it into host big'),
    )
    .action(async (flags: { base?: string; offline?: boolean; image?: string; host?: string }, cmd: Command) => {
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
  const image = options.image ?? configuredSandboxImage(ctx.home, ctx.env);
  const host = options.host === undefined ? null : await configuredSandboxHost(ctx, options.host);
  const local = new Docker();
  let built: BuiltImage | null = null;
  try {
    // A remote host gets the image this engine has: built here first only when it has none.
    const { imageExists } = await import('../../../src/sandbox/docker/image-exists.js');
    if (host === null || !(await imageExists(local, image))) {
      built = await buildSandboxImage({
        docker: local,
        onLog: (line) => ctx.out.note(line),
        image,
        ...(options.base === undefined ? {} : { base: options.base }),
        offline: options.offline,
        signal: abort.signal,
      });
    }
  } finally {
    process.off('SIGINT', onInt);
  }
  if (host === null) {
    const result = built!;
    ctx.out.result(result, () => ctx.out.line(`built ${result.image} on ${result.base} (${result.id})`));
    return;
  }
  const { copyImage } = await import('../../../src/sandbox/docker/copy-image.js');
  const started = performance.now();
  const copied = await copyImage({ from: local, to: host.docker, image, onLog: (line) => ctx.out.note(line) })
    .catch((error: unknown) => {
      // An ssh:// host whose key known_hosts does not vouch for: which key, and what to do.
      throw new UserError(`host ${host.name}: ${host.explain(error)}`, 'sandbox_host_unreachable');
    })
    .finally(() => host.close());
  const seconds = Math.round((performance.now() - started) / 100) / 10;
  const result = { ...copied, host: host.name, built: built !== null, seconds };
  ctx.out.result(result, () =>
    ctx.out.line(copied.copied ? `loaded ${image} (${copied.id}) into host ${host.name} in ${seconds} s` : `host ${host.name} has ${image} (${copied.id}) already`),
  );
}

/** The named host of this data directory's sandbox.hosts, with its Docker client; a usage error names the hosts there are. */
async function configuredSandboxHost(ctx: CliContext, name: string): Promise<{ name: string } & import('../../../src/sandbox/docker/sandbox-hosts.js').HostEngine> {
  const { loadConfig } = await import('../../../src/config/load.js');
  const { engineForHost, parseSandboxHosts } = await import('../../../src/sandbox/docker/sandbox-hosts.js');
  const config = loadConfig({ home: ctx.home, env: ctx.env });
  const hosts = config['sandbox.hosts'] === null ? [] : parseSandboxHosts(config['sandbox.hosts'], { memoryMbPerRun: config['sandbox.memory_mb'] });
  const host = hosts.find((h) => h.name === name);
  if (host === undefined) {
    throw new UsageError(hosts.length === 0 ? `--host ${name}: sandbox.hosts names no host` : `--host ${name}: sandbox.hosts has no such host (it has ${hosts.map((h) => h.name).join(', ')})`);
  }
  return { name, ...engineForHost(host, { sshAgent: ctx.env.SSH_AUTH_SOCK }) };
}
