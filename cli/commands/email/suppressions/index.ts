import type { Command } from 'commander';
import { registerSuppressionsList } from './list.js';
import { registerSuppressionsRemove } from './remove.js';
import { examples } from '../../../help.js';

export function registerEmailSuppressions(email: Command): void {
  const suppressions = email.command('suppressions').description('recipients no longer sent to after a hard bounce or a complaint').addHelpText('after', examples('errand email suppressions list', 'errand email suppressions remove ada@example.com'));
  registerSuppressionsList(suppressions);
  registerSuppressionsRemove(suppressions);
}
