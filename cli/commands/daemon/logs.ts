import { Option, type Command } from 'commander';
import { prettyFactory } from 'pino-pretty';
import { readDaemonState } from '../../../src/runtime/daemon-state.js';
import { dataPaths } from '../../../src/runtime/paths.js';
import { UserError } from '../../cli-errors.js';
import { contextOf, type CliContext } from '../../context.js';
import { integerFlag } from '../../flag-parsers.js';
import { follow, lastLines } from './log-reader.js';
import { daemonLogFile } from './log-file.js';
import { examples } from '../../help.js';

export interface LogsOptions {
  lines: number;
  follow: boolean;
  /** Aborts `--follow` (SIGINT by default). */
  signal?: AbortSignal;
}

export function registerDaemonLogs(daemon: Command): void {
  daemon
    .command('logs')
    .description("print the daemon's log in a readable form (--json: the JSON lines as written)")
    .addHelpText('after', examples('errand daemon logs', 'errand daemon logs -n 200', 'errand daemon logs -f', 'errand daemon logs --json | jq .msg'))
    .addOption(new Option('-n, --lines <n>', 'how many of the last lines to print').argParser(integerFlag(0, 1_000_000)).default(100))
    .option('-f, --follow', 'keep printing lines as the daemon writes them, across rotations, until interrupted')
    .action(async (flags: { lines: number; follow?: boolean }, cmd: Command) => {
      await daemonLogs(contextOf(cmd), { lines: flags.lines, follow: flags.follow === true });
    });
}

export async function daemonLogs(ctx: CliContext, options: LogsOptions): Promise<void> {
  const running = readDaemonState(dataPaths(ctx.home).daemonState);
  if (running?.log === null) {
    // A daemon in the foreground (errandd, errand daemon run) writes no file: its log is on the terminal it runs in.
    throw new UserError(
      `the daemon running on ${ctx.home} (pid ${running.pid}) writes its log to its standard error, not to a file: it is in the terminal ` +
        `that runs it. Started with '${ctx.cliName} daemon start', or with log.file set, it logs to a file this command reads.`,
      'log_on_stderr',
    );
  }
  // The running daemon's own file first: it may have been started with another log.file than the configuration's now.
  const log = typeof running?.log === 'string' ? { path: running.log } : daemonLogFile(ctx.home, ctx.env);
  const pretty = prettyFactory({ colorize: process.stdout.isTTY === true, translateTime: 'SYS:yyyy-mm-dd HH:MM:ss.l', ignore: 'pid,hostname,service' });
  // Lines that are not JSON (what Node prints of a crash) are shown as they are.
  const print = (line: string) => {
    if (ctx.json || !line.startsWith('{')) ctx.out.line(line);
    else ctx.out.stdout.write(pretty(line));
  };
  const { lines, end } = lastLines(log.path, options.lines);
  if (lines.length === 0 && !options.follow) ctx.out.note(`no log lines in ${log.path}`);
  for (const line of lines) print(line);
  if (!options.follow) return;
  const stop = new AbortController();
  const onSigint = () => stop.abort();
  process.once('SIGINT', onSigint);
  options.signal?.addEventListener('abort', onSigint);
  try {
    await follow(log.path, end, print, stop.signal);
  } finally {
    process.off('SIGINT', onSigint);
  }
}
