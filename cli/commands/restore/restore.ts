import { resolve } from 'node:path';
import type { Command } from 'commander';
import { RestoreRefusedError, restoreBackup, type RestoreSummary } from '../../../src/backup/restore-backup.js';
import { systemClock } from '../../../src/clock.js';
import { UserError } from '../../cli-errors.js';
import { contextOf, type CliContext } from '../../context.js';
import { examples } from '../../help.js';
import { plural } from '../../../src/text/plural.js';

export function registerRestore(program: Command): void {
  program
    .command('restore')
    .description('restore a backup made by errand backup into this data directory (the daemon stopped)')
    .addHelpText('after', examples('errand restore nightly.backup --force  # with the daemon stopped', 'ERRAND_HOME=/srv/errand-copy errand restore nightly.backup'))
    .argument('<file>', 'the backup file')
    .option('--force', 'replace a database already in the data directory (it is moved aside, not deleted)')
    .action(async (file: string, flags: { force?: boolean }, cmd: Command) => {
      await restore(contextOf(cmd), resolve(file), flags.force === true);
    });
}

export async function restore(ctx: CliContext, file: string, force: boolean): Promise<RestoreSummary> {
  let summary: RestoreSummary;
  try {
    summary = restoreBackup({ home: ctx.home, env: ctx.env, file, force, clock: systemClock });
  } catch (err) {
    if (err instanceof RestoreRefusedError) throw new UserError(err.message);
    throw err;
  }
  ctx.out.result(summary, () => {
    ctx.out.line(`restored the backup of ${summary.taken_at} into ${summary.home} (${plural(summary.files, 'file')})`);
    if (summary.replaced_into !== null) ctx.out.line(`what was there is in ${summary.replaced_into}`);
    if (summary.kept_config) ctx.out.note("this data directory's configuration (config.json, sealed-config.json) was kept; the backup's was not restored");
    if (summary.master_key === 'missing') {
      ctx.out.warn('no master key here yet: put the one the backup was taken under in master.key (0600) or ERRAND_MASTER_KEY before starting the daemon');
    }
  });
  return summary;
}
