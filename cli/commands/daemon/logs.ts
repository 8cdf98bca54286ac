import { Option, type Command } from 'commander';
import { prettyFactory } from 'pino-pretty';
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
  const log = daemonLogFile(ctx.home, ctx.env);
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
