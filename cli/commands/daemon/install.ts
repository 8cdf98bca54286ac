import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Command } from 'commander';
import { packageRoot } from '../../../src/package-root.js';
import { UserError } from '../../cli-errors.js';
import { contextOf, type CliContext } from '../../context.js';
import { addDaemonFlags, daemonFlagsOf, erranddArgs, erranddPath, type DaemonFlags } from './daemon-flags.js';
import { systemdUnit, unitPathProblems } from './systemd-unit.js';
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
  /** Why the unit, or the user it names, would not work as it stands (also printed on stderr). */
  warnings: string[];
}

/**
 * The user errandd runs as unless --user names another: a system user of its own, which owns the data directory and
 * nothing else. A fixed user rather than systemd's DynamicUser=: the CLI's admin commands (keys, orgs, backup) open
 * the data directory themselves, as that user (sudo -u errand errand keys create ...), which a dynamic user's
 * directory, private to root under /var/lib/private with an id that changes, does not allow; and the data directory
 * may live anywhere (--home), not only under /var/lib.
 */
export const DEFAULT_SERVICE_USER = 'errand';

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
    .addHelpText('after', examples('errand daemon install --home /var/lib/errand --print', 'sudo errand daemon install --home /var/lib/errand', 'sudo systemctl enable --now errandd'))
      .option('--print', 'print the unit on stdout and write nothing')
      .option('--user <name>', `the user errandd runs as (default: ${DEFAULT_SERVICE_USER}, a system user of its own; the docker sandbox needs root)`)
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
  const user = o.user ?? DEFAULT_SERVICE_USER;
  if (!/^[a-z_][a-z0-9_.-]*\$?$/i.test(user)) throw new UserError(`--user must be a user name, got ${JSON.stringify(user)}`);
  const home = resolve(ctx.home);
  const command = [process.execPath, ...erranddArgs(home, o.flags)];
  const unit = systemdUnit({ command, home, user, envFile: o.envFile, docs: join(packageRoot(import.meta.url), 'docs', 'operations.md') });
  const warnings = [...unitPathProblems({ home, node: process.execPath, script: erranddPath() }), ...userProblems(user, home)];
  // On stderr whatever is printed on stdout: `--print > errandd.service` must not hide them.
  for (const warning of warnings) ctx.out.warn(warning);
  if (o.print) {
    const printed: Installed = { unit_path: null, env_file: o.envFile, env_file_written: false, user, unit, warnings };
    ctx.out.result(printed, () => ctx.out.stdout.write(unit));
    return printed;
  }
  if (existsSync(o.unitPath) && !o.force) throw new UserError(`${o.unitPath} exists; --force replaces it`);
  mkdirSync(dirname(o.unitPath), { recursive: true });
  writeFileSync(o.unitPath, unit, { mode: 0o644 });
  const envFileWritten = !existsSync(o.envFile);
  if (envFileWritten) {
    mkdirSync(dirname(o.envFile), { recursive: true, mode: 0o700 });
    writeFileSync(o.envFile, ENV_TEMPLATE, { mode: 0o600 });
  }
  const installed: Installed = { unit_path: o.unitPath, env_file: o.envFile, env_file_written: envFileWritten, user, unit, warnings };
  ctx.out.result(installed, () => {
    ctx.out.line(`wrote ${o.unitPath} (errandd as ${user} on ${home})`);
    if (envFileWritten) ctx.out.line(`wrote ${o.envFile} (0600): put the model key in it`);
    ctx.out.note(`then: systemctl daemon-reload && systemctl enable --now ${unitName(o.unitPath)}; logs: ${ctx.cliName} daemon logs -f --home ${home}`);
  });
  return installed;
}

/**
 * What keeps `user` from running errandd on `home`: root (which the unit allows, but should not be the choice by
 * default), a user this machine does not have (with the commands that make it), or a data directory that belongs to
 * someone else.
 */
function userProblems(user: string, home: string): string[] {
  if (user === 'root') return ['errandd will run as root; --user names an unprivileged user instead'];
  const id = spawnSync('id', ['-u', user], { encoding: 'utf8' });
  if (id.status !== 0) {
    return [
      `there is no user ${user} on this machine; create it, with the data directory it owns, before starting the unit: ` +
        `sudo useradd --system --home-dir ${home} --shell /usr/sbin/nologin ${user} && sudo install -d -m 0700 -o ${user} -g ${user} ${home}`,
    ];
  }
  const owner = existsSync(home) ? statSync(home).uid : null;
  if (owner !== null && String(owner) !== id.stdout.trim()) return [`the data directory ${home} does not belong to ${user}, who could not write to it: sudo chown -R ${user}: ${home}`];
  return [];
}

function unitName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}
