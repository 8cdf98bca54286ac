import type { Command } from 'commander';
import { registerSuppressionsList } from './list.js';
import { registerSuppressionsRemove } from './remove.js';

export function registerEmailSuppressions(email: Command): void {
  const suppressions = email.command('suppressions').description('recipients no longer sent to after a hard bounce or a complaint');
  registerSuppressionsList(suppressions);
  registerSuppressionsRemove(suppressions);
}
