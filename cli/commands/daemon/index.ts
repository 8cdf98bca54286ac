import type { Command } from 'commander';
import { examples } from '../../help.js';
import { registerDaemonInstall } from './install.js';
import { registerDaemonLogs } from './logs.js';
import { registerDaemonRun } from './run.js';
import { registerDaemonStart } from './start.js';
import { registerDaemonStatus } from './status.js';
import { registerDaemonStop } from './stop.js';

export function registerDaemon(program: Command): void {
  const daemon = program.command('daemon').description('run, start, stop and inspect errandd on this data directory').addHelpText('after', examples('errand daemon start', 'errand daemon status --json'));
  registerDaemonRun(daemon);
  registerDaemonStart(daemon);
  registerDaemonStop(daemon);
  registerDaemonStatus(daemon);
  registerDaemonLogs(daemon);
  registerDaemonInstall(daemon);
}
