import type { Command } from 'commander';
import { withRetention } from '../../../src/admin-services.js';
import type { PurgedKind, RetentionPlanItem } from '../../../src/retention/retention-service.js';
import { readDaemonState } from '../../../src/runtime/daemon-state.js';
import { dataPaths } from '../../../src/runtime/paths.js';
import { UserError } from '../../cli-errors.js';
import { contextOf, type CliContext } from '../../context.js';
import { examples } from '../../help.js';
import { plural } from '../../../src/text/plural.js';

export interface GcOptions {
  dryRun: boolean;
  vacuum: boolean;
}

export interface GcResult {
  dry_run: boolean;
  plan: RetentionPlanItem[];
  purged: PurgedKind[] | null;
  vacuumed: boolean;
}

export function registerGc(program: Command): void {
  program
    .command('gc')
    .description('purge what the retention settings no longer keep, now, as the daemon does every retention.interval_min')
    .addHelpText('after', examples('errand gc --dry-run', 'errand gc', 'errand gc --vacuum  # with the daemon stopped'))
    .option('--dry-run', 'only print what would be purged (rows and file bytes per kind)')
    .option('--vacuum', 'then rewrite the database file so that it gives space back (only with the daemon stopped)')
    .action(async (flags: { dryRun?: boolean; vacuum?: boolean }, cmd: Command) => {
      await gc(contextOf(cmd), { dryRun: flags.dryRun === true, vacuum: flags.vacuum === true });
    });
}

/**
 * Works on the data directory itself, beside a running daemon (SQLite in WAL mode; the purge goes in the same short
 * batches as the daemon's), except `--vacuum`, which holds the whole file and so wants the daemon stopped.
 */
export async function gc(ctx: CliContext, options: GcOptions): Promise<GcResult> {
  const paths = dataPaths(ctx.home);
  if (options.vacuum && !options.dryRun && readDaemonState(paths.daemonState) !== null) {
    throw new UserError(`--vacuum rewrites the whole database: stop the daemon first (${ctx.cliName} daemon stop --home ${ctx.home})`);
  }
  return withRetention(ctx.home, ctx.env, async (retention) => {
    const plan = retention.plan();
    const purged = options.dryRun ? null : await retention.purge();
    if (options.vacuum && !options.dryRun) retention.vacuumFully();
    const result: GcResult = { dry_run: options.dryRun, plan, purged, vacuumed: options.vacuum && !options.dryRun };
    ctx.out.result(result, () => {
      ctx.out.table(plan, [
        { header: 'KIND', value: (p) => p.kind },
        { header: 'KEPT', value: (p) => (p.keep_hours === null ? 'forever' : p.keep_hours % 24 === 0 ? plural(p.keep_hours / 24, 'day') : plural(p.keep_hours, 'hour')) },
        { header: 'OLDER THAN', value: (p) => p.older_than ?? '-' },
        { header: options.dryRun ? 'WOULD GO' : 'WENT', value: (p) => (purged === null ? p.rows : (purged.find((k) => k.kind === p.kind)?.rows ?? 0)) },
        { header: 'FILE BYTES', value: (p) => p.bytes },
      ]);
      if (options.dryRun) ctx.out.note('dry run: nothing was purged');
      if (result.vacuumed) ctx.out.note('the database file was rewritten');
    });
    return result;
  });
}
