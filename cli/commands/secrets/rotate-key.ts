import type { Command } from 'commander';
import { rotateMasterKeyIn } from '../../../src/admin-services.js';
import { contextOf, type CliContext } from '../../context.js';
import { examples } from '../../help.js';

export function registerSecretsRotateKey(secrets: Command): void {
  secrets
    .command('rotate-key')
    .description('make a new master key and re-encrypt every stored secret under it (connections, webhook signing secrets, secret keys of errand config set-secret)')
    .addHelpText('after', examples('errand secrets rotate-key', 'errand secrets rotate-key --json'))
    .addHelpText(
      'after',
      `
With a key file (<home>/master.key) a new key replaces it; the old one is kept beside it until every secret is
re-encrypted, then removed. A running daemon reads the new key by itself. When the key comes from ERRAND_MASTER_KEY,
set the new key there and the old one in ERRAND_MASTER_KEY_PREVIOUS first (for this command and the daemon), then
run this command to re-encrypt. Signed screenshot links made before the rotation stop working; reading a run again
gives a new one.`,
    )
    .action(async (_flags: unknown, cmd: Command) => {
      await rotateKey(contextOf(cmd));
    });
}

export async function rotateKey(ctx: CliContext): Promise<void> {
  const report = rotateMasterKeyIn(ctx.home, ctx.env);
  ctx.out.result(report, () => {
    const counts = Object.entries(report.resealed).map(([table, n]) => `${n} in ${table}`);
    ctx.out.line(`master key ${report.key_id} ${report.source === 'file' ? 'made' : 'taken from ERRAND_MASTER_KEY'}; re-encrypted ${counts.length === 0 ? 'nothing (no secrets stored)' : counts.join(', ')}`);
    if (report.removed_key_ids.length > 0) ctx.out.note(`removed the previous key${report.removed_key_ids.length > 1 ? 's' : ''} ${report.removed_key_ids.join(', ')}`);
  });
}
