import { setTimeout as sleep } from 'node:timers/promises';
import type { Command } from 'commander';
import { isAlive, readDaemonState } from '../../../src/runtime/daemon-state.js';
import { dataPaths } from '../../../src/runtime/paths.js';
import { UserError } from '../../cli-errors.js';
import { contextOf, type CliContext } from '../../context.js';
import { examples } from '../../help.js';

const STOP_TIMEOUT_MS = 30_000;

export function registerDaemonStop(daemon: Command): void {
  daemon
    .command('stop')
    .description('stop the background daemon (SIGTERM: it drains in-flight requests) and wait until it has exited')
    .addHelpText('after', examples('errand daemon stop'))
    .action(async (_flags: unknown, cmd: Command) => {
      await stopDaemon(contextOf(cmd));
    });
}

export async function stopDaemon(ctx: CliContext): Promise<void> {
  const state = readDaemonState(dataPaths(ctx.home).daemonState);
  if (!state) {
    ctx.out.warn(`no daemon is running on ${ctx.home}`);
    ctx.out.result({ stopped: false, pid: null }, () => undefined);
    return;
  }
  process.kill(state.pid, 'SIGTERM');
  const deadline = Date.now() + STOP_TIMEOUT_MS;
  while (isAlive(state.pid)) {
    if (Date.now() > deadline) throw new UserError(`errandd (pid ${state.pid}) has not exited ${STOP_TIMEOUT_MS / 1000} s after SIGTERM`);
    await sleep(100);
  }
  ctx.out.result({ stopped: true, pid: state.pid }, () => ctx.out.line(`stopped errandd (pid ${state.pid})`));
}
