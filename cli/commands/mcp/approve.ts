import { createInterface } from 'node:readline/promises';
import type { Command } from 'commander';
import { withDataDirectory } from '../../../src/admin-services.js';
import { readCredentials } from '../../../src/runtime/credentials.js';
import { dataPaths } from '../../../src/runtime/paths.js';
import { UserError } from '../../cli-errors.js';
import { contextOf, type CliContext } from '../../context.js';
import { examples } from '../../help.js';

export interface ApproveOptions {
  code: string;
  /** The key the grant acts under; by default the CLI's own (ERRAND_API_KEY or `errand login`). */
  key?: string;
  yes: boolean;
}

export function registerMcpApprove(mcp: Command): void {
  mcp
    .command('approve')
    .description("approve the sign-in of an MCP client whose consent page shows <code>; the client then acts under the CLI's API key (or --key) and its caps")
    .argument('<code>', 'the one-time code on the consent page (XXXX-XXXX)')
    .option('--key <key id>', 'act under this API key (key_...) instead of the one the CLI uses')
    .option('-y, --yes', 'approve without asking (required when stdin is not a terminal)')
    .addHelpText('after', examples('errand mcp approve ABCD-EFGH', 'errand mcp approve ABCD-EFGH --key key_01... --yes'))
    .action(async (code: string, flags: { key?: string; yes?: boolean }, cmd: Command) => {
      await approve(contextOf(cmd), { code, yes: flags.yes === true, ...(flags.key === undefined ? {} : { key: flags.key }) });
    });
}

export async function approve(ctx: CliContext, options: ApproveOptions): Promise<void> {
  const keyId = options.key ?? (await cliKeyId(ctx));
  const pending = await withDataDirectory(ctx.home, ctx.env, ({ mcpGrants }) => mcpGrants.pending(options.code));
  const who = `${pending.client_name ?? pending.client_id} (${pending.client_id}), which returns to ${pending.redirect_uri}`;
  if (!options.yes) {
    if (!process.stdin.isTTY) throw new UserError(`about to let ${who} act under ${keyId}; pass --yes to approve without a prompt`);
    const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
    try {
      const answer = await rl.question(`Let ${who} act for your organisation under ${keyId}? Only approve a code shown on your own screen. [y/N] `);
      if (!/^y(es)?$/i.test(answer.trim())) throw new UserError('not approved');
    } finally {
      rl.close();
    }
  }
  const approved = await withDataDirectory(ctx.home, ctx.env, ({ mcpGrants }) => mcpGrants.approve(options.code, keyId));
  ctx.out.result({ object: 'mcp_approval', ...approved }, () => {
    ctx.out.line(`approved: ${approved.client_name ?? approved.client_id} may act for ${approved.org_id} under ${approved.key_id}`);
    ctx.out.note('go back to the consent page and choose Allow');
  });
}

/** The id of the key the CLI itself uses, checked against the data directory: approving needs a key that works. */
async function cliKeyId(ctx: CliContext): Promise<string> {
  const token = ctx.env.ERRAND_API_KEY || readCredentials(dataPaths(ctx.home).credentials)?.api_key;
  if (!token) throw new UserError(`no API key to approve under: pass --key <key id> (see '${ctx.cliName} keys list'), or set one with '${ctx.cliName} login'`);
  return withDataDirectory(ctx.home, ctx.env, ({ keys }) => {
    try {
      return keys.authenticate(token).keyId;
    } catch {
      throw new UserError(`the CLI's API key is not valid on this data directory; pass --key <key id> (see '${ctx.cliName} keys list')`);
    }
  });
}
