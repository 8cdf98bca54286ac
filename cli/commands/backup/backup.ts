import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { takeBackup, type BackupSummary } from '../../../src/backup/take-backup.js';
import { systemClock } from '../../../src/clock.js';
import { UserError } from '../../cli-errors.js';
import { contextOf, type CliContext } from '../../context.js';
import { examples } from '../../help.js';
import { plural } from '../../../src/text/plural.js';

export function registerBackup(program: Command): void {
  program
    .command('backup')
    .description('copy the database (consistent, while the daemon runs), the artifacts and attachments, and the configuration into one file (0600); never the master key, never a secret in plain text')
    .addHelpText('after', examples('errand backup /var/backups/errand-$(date +%F).backup', 'errand backup nightly.backup --force --json'))
    .argument('<file>', 'the backup file to write')
    .option('--force', 'replace the file if it exists')
    .action(async (file: string, flags: { force?: boolean }, cmd: Command) => {
      await backup(contextOf(cmd), resolve(file), flags.force === true);
    });
}

export async function backup(ctx: CliContext, file: string, force: boolean): Promise<BackupSummary> {
  if (existsSync(file) && !force) throw new UserError(`${file} exists; --force replaces it`);
  const summary = await takeBackup({ home: ctx.home, env: ctx.env, file, clock: systemClock });
  ctx.out.result(summary, () => {
    ctx.out.line(`backed up ${ctx.home} as of ${summary.taken_at} into ${summary.file}`);
    ctx.out.line(`database ${plural(summary.database_bytes, 'byte')} (schema ${summary.schema_version}), ${plural(summary.files, 'file')} of ${plural(summary.file_bytes, 'byte')}`);
    ctx.out.note('the master key is not in the backup: keep a copy of it apart from the backups (docs/operations.md)');
    if (summary.plain_secrets_left_out.length > 0) {
      ctx.out.warn(
        `config.json holds ${summary.plain_secrets_left_out.join(' and ')} in plain text, which the backup left out; ${ctx.cliName} config seal puts ${summary.plain_secrets_left_out.length > 1 ? 'them' : 'it'} under the master key, and later backups carry ${summary.plain_secrets_left_out.length > 1 ? 'them' : 'it'} sealed`,
      );
    }
  });
  return summary;
}
