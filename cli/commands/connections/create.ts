import { Option, type Command } from 'commander';
import type { ConnectionCreateParams } from '../../api.js';
import { contextOf, type CliContext } from '../../context.js';
import { addConnectionFieldOptions, headersOf, type ConnectionFieldFlags } from './connection-flags.js';
import { printConnection } from './connection-view.js';
import { readSecret } from './secret-input.js';
import { warnOfUnreachableProxy } from './proxy-reach.js';
import { examples } from '../../help.js';

interface CreateFlags extends ConnectionFieldFlags {
  name: string;
  type: 'token' | 'mcp' | 'totp' | 'proxy';
  project?: string;
  disabled?: boolean;
}

export function registerConnectionsCreate(connections: Command): void {
  addConnectionFieldOptions(
    connections
      .command('create')
      .description('create a token, mcp, totp or proxy connection (an mcp one is checked by connecting); oauth ones: errand connections link')
      .addHelpText('after', examples('errand connections create --name github --type token --env-var-name GITHUB_TOKEN --secret-stdin < token.txt', 'errand connections create --name docs --type mcp --url https://mcp.example.com/mcp --header \'Authorization: Bearer ${SECRET}\' --secret-from-env DOCS_TOKEN', 'errand connections create --name bank-2fa --type totp --secret-stdin < otpauth-uri.txt', 'printf %s "user:$PROXY_PASSWORD" | errand connections create --name corp --type proxy --url http://proxy.example:3128 --secret-stdin'))
      .requiredOption('--name <name>', 'letters, digits, _ and -; MCP tools are offered as <name>__<tool>')
      .addOption(new Option('--type <type>', 'token, mcp, totp (the seed of an authenticator app, whose codes runs type by reference) or proxy (its secret is user:password)').choices(['token', 'mcp', 'totp', 'proxy']).makeOptionMandatory())
      .option('--project <id>', "only this project's runs use it (default: every run of the organisation)")
      .option('--disabled', 'create it switched off'),
  )
    .addHelpText('after', `\nExamples:\n  printf %s "$GITHUB_TOKEN" | errand connections create --name github --type token --secret-stdin --env-var-name GITHUB_TOKEN\n  errand connections create --name crm --type mcp --url https://mcp.example.com/mcp --secret-from-env CRM_KEY --header 'Authorization: Bearer \${SECRET}'\n  errand connections create --name bank-2fa --type totp --secret-stdin < otpauth-uri.txt`)
    .action(async (flags: CreateFlags, cmd: Command) => {
      const ctx = contextOf(cmd);
      const secret = readSecret(flags, ctx.env);
      await createConnection(ctx, {
        name: flags.name,
        type: flags.type,
        ...(secret === undefined ? {} : { secret }),
        ...(flags.envVarName === undefined ? {} : { env_var_name: flags.envVarName }),
        ...(flags.url === undefined ? {} : { url: flags.url }),
        ...(flags.transport === undefined ? {} : { transport: flags.transport }),
        ...(flags.header === undefined ? {} : { headers: headersOf(flags.header) }),
        ...(flags.project === undefined ? {} : { project_id: flags.project }),
        ...(flags.disabled === true ? { is_enabled: false } : {}),
      });
    });
}

export async function createConnection(ctx: CliContext, body: ConnectionCreateParams): Promise<void> {
  const connection = await ctx.api().connections.create(body);
  printConnection(ctx, connection);
  await warnOfUnreachableProxy(ctx, connection);
}
