import type { Command } from 'commander';
import { examples } from '../../help.js';
import { registerOrgsCreate } from './create.js';
import { registerOrgsList } from './list.js';

export function registerOrgs(program: Command): void {
  const orgs = program.command('orgs').description('organisations on this data directory (local admin, no daemon needed)').addHelpText('after', examples('errand orgs create acme', 'errand orgs list'));
  registerOrgsCreate(orgs);
  registerOrgsList(orgs);
}
