import type { Command } from 'commander';
import { withDataDirectory } from '../../../src/admin-services.js';
import { contextOf, type CliContext } from '../../context.js';
import { examples } from '../../help.js';

export interface RevokeKeyOptions {
  id: string;
}

export function registerKeysRevoke(keys: Command): void {
  keys
    .command('revoke')
    .description('revoke an API key at once: requests with it answer 401')
    .argument('<id>', 'key id (key_...)')
    .addHelpText('after', examples('errand keys revoke key_01...'))
    .action(async (id: string, _flags: unknown, cmd: Command) => {
      await revokeKey(contextOf(cmd), { id });
    });
}

export async function revokeKey(ctx: CliContext, options: RevokeKeyOptions): Promise<void> {
  const { already, key } = await withDataDirectory(ctx.home, ctx.env, ({ keys }) => {
    const before = keys.list().find((k) => k.id === options.id);
    if (before?.revoked_at) return { already: true, key: before };
    return { already: false, key: keys.revoke(options.id) };
  });
  if (already) ctx.out.warn(`key ${key.id} was already revoked at ${key.revoked_at}`);
  ctx.out.result(key, () => {
    if (!already) ctx.out.line(`revoked key ${key.id}`);
  });
}
