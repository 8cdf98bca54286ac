import type { Command } from 'commander';
import { registerDomainRemove } from './remove.js';
import { registerDomainSet } from './set.js';
import { registerDomainVerify } from './verify.js';

export function registerEmailDomain(email: Command): void {
  const domain = email.command('domain').description("the organisation's own sending domain: set it, verify its MX, remove it");
  registerDomainSet(domain);
  registerDomainVerify(domain);
  registerDomainRemove(domain);
}
