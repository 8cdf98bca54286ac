import type { Command } from 'commander';
import { registerSandboxBuild } from './build.js';
import { registerSandboxStatus } from './status.js';

export function registerSandbox(program: Command): void {
  const sandbox = program.command('sandbox').description('the docker sandbox image runs execute in');
  registerSandboxBuild(sandbox);
  registerSandboxStatus(sandbox);
}
