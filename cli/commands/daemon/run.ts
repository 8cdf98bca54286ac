import { spawn } from 'node:child_process';
import type { Command } from 'commander';
import { SilentExit } from '../../cli-errors.js';
import { contextOf, type CliContext } from '../../context.js';
import { examples } from '../../help.js';
import { announcementOf } from './announcement.js';
import { addDaemonFlags, daemonFlagsOf, erranddArgs, type DaemonFlags } from './daemon-flags.js';

export function registerDaemonRun(daemon: Command): void {
  addDaemonFlags(daemon.command('run').description('run errandd in the foreground (Ctrl-C or SIGTERM drains and stops it)'))
    .addHelpText(
      'after',
      `
Its log goes to stderr, readable on a terminal and JSON lines otherwise. With --json, stdout carries one object once
it listens, {pid, url, first_start}, as 'daemon start --json' prints it.
${examples('errand daemon run', 'errand daemon run --port 0 --dev', 'ANTHROPIC_API_KEY=sk-... errand daemon run --set limits.max_concurrent_runs=8')}`,
    )
    .action(async (flags: Parameters<typeof daemonFlagsOf>[0], cmd: Command) => {
      await runDaemon(contextOf(cmd), daemonFlagsOf(flags));
    });
}

/**
 * Runs errandd with its output on this terminal, passing signals on, and exits with its exit code. The child has
 * its own process group so that Ctrl-C reaches it once, through us: a second SIGINT would make it exit without
 * draining.
 */
export async function runDaemon(ctx: CliContext, flags: DaemonFlags): Promise<void> {
  const child = spawn(process.execPath, erranddArgs(ctx.home, flags), { stdio: ['ignore', ctx.json ? 'pipe' : 'inherit', 'inherit'], env: ctx.env, detached: true });
  if (ctx.json) {
    let stdout = '';
    let announced = false;
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      // errandd writes its address and a first start's notice in one write.
      const announcement = announced ? null : announcementOf(stdout);
      if (announcement === null) return;
      announced = true;
      ctx.out.printJson({ pid: child.pid, ...announcement });
    });
  }
  const forward = (signal: NodeJS.Signals) => () => child.kill(signal);
  const onInt = forward('SIGINT');
  const onTerm = forward('SIGTERM');
  process.on('SIGINT', onInt);
  process.on('SIGTERM', onTerm);
  try {
    const code = await new Promise<number>((resolve, reject) => {
      child.once('error', reject);
      child.once('exit', (exitCode, signal) => resolve(exitCode ?? (signal === null ? 1 : 128 + signalNumber(signal))));
    });
    if (code !== 0) throw new SilentExit(code);
  } finally {
    process.off('SIGINT', onInt);
    process.off('SIGTERM', onTerm);
  }
}

function signalNumber(signal: NodeJS.Signals): number {
  return signal === 'SIGINT' ? 2 : signal === 'SIGKILL' ? 9 : 15;
}
