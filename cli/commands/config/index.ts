import type { Command } from 'commander';
import { examples } from '../../help.js';
import { registerConfigSeal } from './seal.js';
import { registerConfigSetSecret } from './set-secret.js';
import { registerConfigShow } from './show.js';
import { registerConfigUnsetSecret } from './unset-secret.js';

export function registerConfig(program: Command): void {
  const config = program
    .command('config')
    .description("the daemon's configuration on this data directory: see where each key is set, and keep secret keys sealed under the master key")
    .addHelpText('after', examples('errand config show mail', 'errand config set-secret mail.smtp_url < relay-url.txt', 'errand config seal'))
    .addHelpText(
      'after',
      `
Secret keys (mail.smtp_url, oauth.providers) are never shown, never taken as flags, and never in a backup in plain
text. Set them sealed under the master key with 'errand config set-secret', or give them to the daemon in
ERRAND_<KEY> or ERRAND_<KEY>_FILE (a file, as systemd credentials and Docker secrets provide). The daemon reads them
when it starts.`,
    );
  registerConfigShow(config);
  registerConfigSetSecret(config);
  registerConfigUnsetSecret(config);
  registerConfigSeal(config);
}
