import type { Command } from 'commander';
import { registerKeysCreate } from './create.js';
import { registerKeysList } from './list.js';
import { registerKeysRevoke } from './revoke.js';

export function registerKeys(program: Command): void {
  const keys = program.command('keys').description('API keys on this data directory (local admin, no daemon needed)');
  registerKeysCreate(keys);
  registerKeysList(keys);
  registerKeysRevoke(keys);
}
