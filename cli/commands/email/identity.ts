import type { Command } from 'commander';
import type { EmailIdentityParams, EmailIdentity } from '../../api.js';
import { APIError } from '../../api.js';
import { UserError } from '../../cli-errors.js';
import { contextOf, type CliContext } from '../../context.js';
import { examples } from '../../help.js';

interface IdentityFlags {
  username?: string;
  callbackUrl?: string;
  clearCallbackUrl?: boolean;
  rotateSecret?: boolean;
  allocate?: boolean;
}

export function registerEmailIdentity(email: Command): void {
  email
    .command('identity')
    .description("show the organisation's email identity; with a flag, allocate or change it (and print its webhook secret)")
    .addHelpText('after', examples('errand email identity', 'errand email identity --allocate --username support'))
    .option('--allocate', 'allocate the identity (<org handle>@<relay domain>) if it does not exist yet')
    .option('--username <name>', 'use <name>@<relay domain> (3-32 of a-z, 0-9, hyphen)')
    .option('--callback-url <url>', 'https target of email.received, email.bounced and email.complained')
    .option('--clear-callback-url', 'stop sending email webhooks')
    .option('--rotate-secret', 'mint a new webhook secret; the previous one keeps signing for 24 h')
    .action(async (flags: IdentityFlags, cmd: Command) => {
      await identity(contextOf(cmd), flags);
    });
}

export async function identity(ctx: CliContext, flags: IdentityFlags): Promise<void> {
  const body: EmailIdentityParams = {
    ...(flags.username === undefined ? {} : { username: flags.username }),
    ...(flags.callbackUrl === undefined ? {} : { callback_url: flags.callbackUrl }),
    ...(flags.clearCallbackUrl ? { callback_url: null } : {}),
    ...(flags.rotateSecret ? { rotate_webhook_secret: true } : {}),
  };
  const api = ctx.api();
  if (Object.keys(body).length === 0 && flags.allocate !== true) {
    let shown: EmailIdentity;
    try {
      shown = await api.emails.identity.get();
    } catch (err) {
      if (err instanceof APIError && err.status === 404) throw new UserError(`the organisation has no email identity yet; allocate it with '${ctx.cliName} email identity --allocate'`);
      throw err;
    }
    return printIdentity(ctx, shown);
  }
  const configured = await api.emails.identity.set(body);
  printIdentity(ctx, configured);
  if (!ctx.json) ctx.out.note(`webhook secret (verifies the email webhooks): ${configured.webhook_secret}`);
}

function printIdentity(ctx: CliContext, identity: EmailIdentity): void {
  ctx.out.result(identity, () =>
    ctx.out.fields([
      ['address', identity.address],
      ['relay address', identity.relay_address],
      ['callback url', identity.callback_url],
      ['sending domain', identity.domain === null ? null : `${identity.domain.name} (${identity.domain.verified ? `verified ${identity.domain.verified_at}` : 'not verified'})`],
      ['approval', identity.require_approval ? 'required' : 'not required'],
      ['created', identity.created_at],
    ]),
  );
}
