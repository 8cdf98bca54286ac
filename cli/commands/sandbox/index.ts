import type { Command } from 'commander';
import { examples } from '../../help.js';
import { registerSandboxBuild } from './build.js';
import { registerSandboxFirewall } from './firewall.js';
import { registerSandboxHosts } from './hosts.js';
import { registerSandboxStatus } from './status.js';

export function registerSandbox(program: Command): void {
  const sandbox = program.command('sandbox').description('the docker sandbox image runs execute in').addHelpText('after', examples('errand sandbox status', 'errand sandbox hosts', 'errand sandbox build --offline'));
  registerSandboxBuild(sandbox);
  registerSandboxStatus(sandbox);
  registerSandboxHosts(sandbox);
  registerSandboxFirewall(sandbox);
}
