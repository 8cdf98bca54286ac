import type { Command } from 'commander';
import { sealPlainSecrets } from '../../../src/config/operator-secrets.js';
import { SEALED_CONFIG_FILE } from '../../../src/config/sealed-config.js';
import { ConfigError } from '../../../src/errors.js';
import { UsageError } from '../../cli-errors.js';
import { contextOf, type CliContext } from '../../context.js';
import { examples } from '../../help.js';

export function registerConfigSeal(config: Command): void {
  config
    .command('seal')
    .description(`move every secret key config.json holds in plain text (mail.smtp_url, oauth.providers) under the master key, into ${SEALED_CONFIG_FILE}`)
    .addHelpText('after', examples('errand config seal', 'errand config seal --json'))
    .addHelpText(
      'after',
      '\nconfig.json is written again without them (as indented JSON). A key that is already sealed keeps its sealed value and only loses the plain copy. The daemon reads sealed values when it starts.',
    )
    .action(async (_flags: unknown, cmd: Command) => {
      await seal(contextOf(cmd));
    });
}

export async function seal(ctx: CliContext): Promise<void> {
  let moved;
  try {
    moved = sealPlainSecrets({ home: ctx.home, env: ctx.env });
  } catch (err) {
    if (err instanceof ConfigError) throw new UsageError(err.message, 'invalid_config', err.key);
    throw err;
  }
  const { sealed, dropped } = moved;
  ctx.out.result({ object: 'config_seal', sealed, dropped }, () => {
    if (sealed.length === 0 && dropped.length === 0) ctx.out.note('config.json holds no secret in plain text; nothing to do');
    if (sealed.length > 0) ctx.out.line(`sealed ${sealed.join(' and ')} under the master key and removed ${sealed.length > 1 ? 'them' : 'it'} from config.json`);
    if (dropped.length > 0) ctx.out.line(`removed the plain copy of ${dropped.join(' and ')} from config.json; the sealed value stays`);
  });
}
