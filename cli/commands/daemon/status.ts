import type { Command } from 'commander';
import { readDaemonState } from '../../../src/runtime/daemon-state.js';
import { dataPaths } from '../../../src/runtime/paths.js';
import { SilentExit } from '../../cli-errors.js';
import { apiClient, contextOf, type CliContext } from '../../context.js';
import { examples } from '../../help.js';

export interface Status {
  running: boolean;
  reachable: boolean;
  pid: number | null;
  url: string | null;
  started_at: string | null;
  home: string;
}

export function registerDaemonStatus(daemon: Command): void {
  daemon
    .command('status')
    .description('say whether a daemon runs on this data directory and answers (exit 0 when it does, 1 otherwise)')
    .addHelpText('after', examples('errand daemon status', 'errand daemon status --json'))
    .action(async (_flags: unknown, cmd: Command) => {
      await daemonStatus(contextOf(cmd));
    });
}

export async function daemonStatus(ctx: CliContext): Promise<Status> {
  const state = readDaemonState(dataPaths(ctx.home).daemonState);
  const status: Status = {
    running: state !== null,
    reachable: state !== null && (await answers(state.url)),
    pid: state?.pid ?? null,
    url: state?.url ?? null,
    started_at: state?.started_at ?? null,
    home: ctx.home,
  };
  ctx.out.result(status, () => {
    if (!state) ctx.out.line(`not running (data directory ${ctx.home})`);
    else ctx.out.line(`running: pid ${state.pid} at ${state.url} since ${state.started_at}${status.reachable ? '' : ' (not answering)'}`);
  });
  if (!status.running || !status.reachable) throw new SilentExit(1);
  return status;
}

/** GET /healthz, with a short timeout: a daemon that does not answer within seconds is as good as down. */
export async function answers(url: string): Promise<boolean> {
  try {
    await apiClient({ url, key: '' }).health({ timeoutMs: 3000 });
    return true;
  } catch {
    return false;
  }
}
