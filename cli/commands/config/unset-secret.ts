import type { Command } from 'commander';
import { unsetOperatorSecret } from '../../../src/config/operator-secrets.js';
import { SECRET_KEYS, type ConfigKey } from '../../../src/config/schema.js';
import { contextOf, type CliContext } from '../../context.js';
import { examples } from '../../help.js';
import { secretKey } from './set-secret.js';

export function registerConfigUnsetSecret(config: Command): void {
  config
    .command('unset-secret')
    .description('remove a secret key\'s sealed value, and any plain copy in config.json; the daemon goes without it from its next start')
    .argument('<key>', `the secret key: ${SECRET_KEYS.join(', ')}`)
    .addHelpText('after', examples('errand config unset-secret oauth.providers'))
    .action(async (key: string, _flags: unknown, cmd: Command) => {
      await unsetSecret(contextOf(cmd), secretKey(key));
    });
}

export async function unsetSecret(ctx: CliContext, key: ConfigKey): Promise<void> {
  const removed = unsetOperatorSecret({ home: ctx.home, env: ctx.env }, key);
  if (!removed.sealed && !removed.plain_copy) ctx.out.warn(`${key} was not set in this data directory`);
  ctx.out.result({ object: 'config_secret', key, removed }, () => {
    if (removed.sealed || removed.plain_copy) ctx.out.line(`removed ${key}${removed.plain_copy ? ' (and its plain copy in config.json)' : ''}`);
  });
}
