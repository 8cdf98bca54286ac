import type { Command } from 'commander';
import { registerSecretsRotateKey } from './rotate-key.js';
import { examples } from '../../help.js';

export function registerSecrets(program: Command): void {
  const secrets = program.command('secrets').description('the master key that encrypts stored secrets (local admin on the data directory)').addHelpText('after', examples('errand secrets rotate-key'));
  registerSecretsRotateKey(secrets);
}
