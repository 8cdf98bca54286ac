import type { Command } from 'commander';
import { contextOf, type CliContext } from '../../context.js';
import { examples } from '../../help.js';

export function registerRunsLiveRevoke(runs: Command): void {
  runs
    .command('live-revoke')
    .description("revoke every live view link of a run handed out so far, and end a person's control through one")
    .argument('<id>', 'run id (run_...)')
    .addHelpText('after', examples('errand runs live-revoke run_01...', 'errand runs live-revoke run_01... --json'))
    .action(async (id: string, _flags: unknown, cmd: Command) => {
      await revokeLiveLinks(contextOf(cmd), { id });
    });
}

export async function revokeLiveLinks(ctx: CliContext, options: { id: string }): Promise<void> {
  const revoked = await ctx.api().runs.live.revoke(options.id);
  ctx.out.result(revoked, () => {
    ctx.out.line(`revoked the live links of ${revoked.run_id} at ${revoked.revoked_at}`);
    if (revoked.control_released) ctx.out.line('a person held control through one: that control ended, and the agent goes on');
  });
}
