import type { Command } from 'commander';
import { registerDomainRemove } from './remove.js';
import { registerDomainSet } from './set.js';
import { registerDomainVerify } from './verify.js';
import { examples } from '../../../help.js';

export function registerEmailDomain(email: Command): void {
  const domain = email.command('domain').description("the organisation's own sending domain: set it, verify its MX, remove it").addHelpText('after', examples('errand email domain set mail.example.com', 'errand email domain verify'));
  registerDomainSet(domain);
  registerDomainVerify(domain);
  registerDomainRemove(domain);
}
