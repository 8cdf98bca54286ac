import type { Command } from 'commander';
import { SilentExit } from '../../../cli-errors.js';
import { contextOf, type CliContext } from '../../../context.js';
import { examples } from '../../../help.js';

export function registerDomainVerify(domain: Command): void {
  domain
    .command('verify')
    .description("check the sending domain's MX record (through dns.servers) and print the DNS records to publish")
    .addHelpText('after', examples('errand email domain verify', 'errand email domain verify --json'))
    .addHelpText('after', '\nExit status: 0 when the MX record names this installation, 1 when it does not yet.')
    .action(async (_flags: unknown, cmd: Command) => {
      await verifyDomain(contextOf(cmd));
    });
}

export async function verifyDomain(ctx: CliContext): Promise<void> {
  const check = await ctx.api().emails.identity.verifyDomain();
  ctx.out.result(check, () => {
    ctx.out.line(`${check.verified ? 'verified' : 'NOT verified'}: ${check.detail}`);
    ctx.out.line();
    ctx.out.line('Publish these records:');
    ctx.out.line(`  ${check.records.mx}`);
    ctx.out.line(`  ${check.records.spf}`);
    ctx.out.line(`  ${check.records.dkim ?? '(no DKIM key is configured: mail.dkim_selector and mail.dkim_private_key_path)'}`);
  });
  if (!check.verified) throw new SilentExit(1);
}
