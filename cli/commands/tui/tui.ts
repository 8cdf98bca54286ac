import type { Command } from 'commander';
import { UsageError } from '../../cli-errors.js';
import { contextOf, type CliContext } from '../../context.js';
import { examples } from '../../help.js';
import { PANES } from '../../tui/dashboard/panes.js';

export function registerTui(program: Command): void {
  program
    .command('tui')
    .description('a live dashboard in the terminal: runs as they happen, a run in detail, jobs and schedules, webhook deliveries, connections, mail')
    .addHelpText(
      'after',
      `
Panes: ${PANES.map((p) => `${p.key} ${p.title}`).join(', ')}.
Keys: arrows or j/k move, enter opens a run (or a message), esc goes back, / filters, c cancels a run, r re-runs it
(or redelivers a webhook), a answers a run that waits for a person, 1-${PANES.length} or tab switch panes, q quits.
Webhook deliveries are read from the data directory: run it on the daemon's machine to see them.
${examples('errand tui', 'ERRAND_API_URL=http://127.0.0.1:7370 ERRAND_API_KEY=ek_... errand tui')}`,
    )
    .action(async (_flags: unknown, cmd: Command) => {
      await tui(contextOf(cmd));
    });
}

export async function tui(ctx: CliContext): Promise<void> {
  if (ctx.json) throw new UsageError('errand tui is interactive and has no --json output; use the other commands (runs list --json, ...) for machine output');
  if (!process.stdout.isTTY || !process.stdin.isTTY) throw new UsageError('errand tui needs a terminal on stdin and stdout');
  // Ink, React and the dashboard load only here.
  const [{ renderDashboard }, { apiSource }] = await Promise.all([import('../../tui/dashboard/render-dashboard.js'), import('../../tui/dashboard/api-source.js')]);
  await renderDashboard(apiSource(ctx), ctx.cliName);
}
