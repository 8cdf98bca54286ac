import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { Command } from 'commander';
import { packageRoot } from '../../../src/package-root.js';
import { UserError } from '../../cli-errors.js';
import { contextOf, type CliContext } from '../../context.js';
import { addDaemonFlags, daemonFlagsOf, erranddArgs, type DaemonFlags } from './daemon-flags.js';
import { systemdUnit } from './systemd-unit.js';
import { examples } from '../../help.js';

export interface InstallOptions {
  print: boolean;
  force: boolean;
  user: string | null;
  unitPath: string;
  envFile: string;
  flags: DaemonFlags;
}

export interface Installed {
  unit_path: string | null;
  env_file: string;
  env_file_written: boolean;
  user: string;
  unit: string;
}

const ENV_TEMPLATE = `# Environment of errandd (errand daemon install). Keep this file readable by root only: it holds keys.
# ANTHROPIC_API_KEY=sk-ant-...
# ERRAND_MASTER_KEY=...        (base64; else <home>/master.key is used)
# ERRAND_MAIL_SMTP_URL=smtp://user:password@relay.example.com:587   (or: errand config set-secret mail.smtp_url)
# ERRAND_METRICS_PORT=9370
`;

export function registerDaemonInstall(daemon: Command): void {
  addDaemonFlags(
    daemon
      .command('install')
      .description('write a systemd unit that runs errandd on this data directory (--print only shows it)')
    .addHelpText('after', examples('errand daemon install --print', 'sudo errand daemon install --user errand', 'sudo systemctl enable --now errandd'))
      .option('--print', 'print the unit on stdout and write nothing')
      .option('--user <name>', 'the user errandd runs as (default: the one running this, or $SUDO_USER under sudo)')
      .option('--unit-path <path>', 'where to write the unit', '/etc/systemd/system/errandd.service')
      // Not --env-file: Node 20 takes that for its own wherever it appears on the command line.
      .option('--environment-file <path>', 'environment file the unit reads (model keys); written, 0600, if missing', '/etc/errand/errandd.env')
      .option('--force', 'replace an existing unit file'),
  ).action(async (flags: Parameters<typeof daemonFlagsOf>[0] & { print?: boolean; user?: string; unitPath: string; environmentFile: string; force?: boolean }, cmd: Command) => {
    await installDaemon(contextOf(cmd), {
      print: flags.print === true,
      force: flags.force === true,
      user: flags.user ?? null,
      unitPath: resolve(flags.unitPath),
      envFile: resolve(flags.environmentFile),
      flags: daemonFlagsOf(flags),
    });
  });
}

export async function installDaemon(ctx: CliContext, o: InstallOptions): Promise<Installed> {
  const user = o.user ?? (ctx.env.SUDO_USER || userInfo().username);
  if (!/^[a-z_][a-z0-9_.-]*\$?$/i.test(user)) throw new UserError(`--user must be a user name, got ${JSON.stringify(user)}`);
  const home = resolve(ctx.home);
  const unit = systemdUnit({
    command: [process.execPath, ...erranddArgs(home, o.flags)],
    home,
    user,
    envFile: o.envFile,
    docs: join(packageRoot(import.meta.url), 'docs', 'operations.md'),
  });
  if (o.print) {
    ctx.out.result({ unit_path: null, env_file: o.envFile, env_file_written: false, user, unit }, () => ctx.out.stdout.write(unit));
    return { unit_path: null, env_file: o.envFile, env_file_written: false, user, unit };
  }
  if (existsSync(o.unitPath) && !o.force) throw new UserError(`${o.unitPath} exists; --force replaces it`);
  mkdirSync(dirname(o.unitPath), { recursive: true });
  writeFileSync(o.unitPath, unit, { mode: 0o644 });
  const envFileWritten = !existsSync(o.envFile);
  if (envFileWritten) {
    mkdirSync(dirname(o.envFile), { recursive: true, mode: 0o700 });
    writeFileSync(o.envFile, ENV_TEMPLATE, { mode: 0o600 });
  }
  const installed: Installed = { unit_path: o.unitPath, env_file: o.envFile, env_file_written: envFileWritten, user, unit };
  ctx.out.result(installed, () => {
    ctx.out.line(`wrote ${o.unitPath} (errandd as ${user} on ${home})`);
    if (envFileWritten) ctx.out.line(`wrote ${o.envFile} (0600): put the model key in it`);
    if (user === 'root') ctx.out.warn('errandd will run as root; --user names an unprivileged user instead');
    ctx.out.note(`then: systemctl daemon-reload && systemctl enable --now ${unitName(o.unitPath)}; logs: errand daemon logs -f --home ${home}`);
  });
  return installed;
}

function unitName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}
