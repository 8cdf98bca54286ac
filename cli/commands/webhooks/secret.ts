import type { Command } from 'commander';
import { contextOf, type CliContext } from '../../context.js';
import { examples } from '../../help.js';
import { withWebhookServices } from './webhook-services.js';
import { ORG_OPTION_HELP } from '../../pick-org.js';

export interface WebhookSecretOptions {
  org?: string;
  rotate: boolean;
}

export function registerWebhooksSecret(webhooks: Command): void {
  webhooks
    .command('secret')
    .description("show the organisation's run-webhook signing secret (whsec_...), or rotate it")
    .option('--rotate', 'mint a new secret; the old one keeps signing beside it for 24 h')
    .option('--org <id or name>', ORG_OPTION_HELP)
    .addHelpText('after', examples('errand webhooks secret', 'errand webhooks secret --rotate'))
    .action(async (flags: { rotate?: boolean; org?: string }, cmd: Command) => {
      await webhookSecret(contextOf(cmd), { rotate: flags.rotate === true, ...(flags.org === undefined ? {} : { org: flags.org }) });
    });
}

export async function webhookSecret(ctx: CliContext, options: WebhookSecretOptions): Promise<void> {
  const info = await withWebhookServices(ctx.home, ctx.env, options.org, ({ orgId, secrets }) => ({
    org_id: orgId,
    ...(options.rotate ? secrets.rotate(orgId) : secrets.current(orgId)),
  }));
  ctx.out.result(info, () => {
    if (options.rotate) ctx.out.note(`rotated the signing secret of ${info.org_id}; give receivers the new one:`);
    ctx.out.line(info.secret);
    if (info.previous_expires_at) ctx.out.note(`the previous secret also signs until ${info.previous_expires_at}`);
  });
}
