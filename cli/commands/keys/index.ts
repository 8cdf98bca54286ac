import type { Command } from 'commander';
import { examples } from '../../help.js';
import { registerKeysCreate } from './create.js';
import { registerKeysList } from './list.js';
import { registerKeysRevoke } from './revoke.js';

export function registerKeys(program: Command): void {
  const keys = program.command('keys').description('API keys on this data directory (local admin, no daemon needed)').addHelpText('after', examples('errand keys create --name ci', 'errand keys list'));
  registerKeysCreate(keys);
  registerKeysList(keys);
  registerKeysRevoke(keys);
}
