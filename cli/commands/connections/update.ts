import { Option, type Command } from 'commander';
import type { ConnectionUpdateParams } from '../../api.js';
import { UsageError } from '../../cli-errors.js';
import { contextOf, type CliContext } from '../../context.js';
import { addConnectionFieldOptions, headersOf, type ConnectionFieldFlags } from './connection-flags.js';
import { printConnection, resolveConnection } from './connection-view.js';
import { readSecret } from './secret-input.js';
import { warnOfUnreachableProxy } from './proxy-reach.js';
import { examples } from '../../help.js';

interface UpdateFlags extends ConnectionFieldFlags {
  name?: string;
  enable?: boolean;
  disable?: boolean;
  clearSecret?: boolean;
  clearEnvVarName?: boolean;
  clearHeaders?: boolean;
}

export function registerConnectionsUpdate(connections: Command): void {
  addConnectionFieldOptions(
    connections
      .command('update')
      .description('change a connection; a new secret replaces the stored one (an mcp connection is checked again)')
      .addHelpText('after', examples('errand connections update github --secret-stdin < new-token.txt', 'errand connections update docs --disable'))
      .argument('<connection>', 'id (conn_...) or name')
      .option('--name <name>', 'rename it')
      .addOption(new Option('--enable', 'switch it on').conflicts('disable'))
      .option('--disable', 'switch it off: runs no longer use it')
      .addOption(new Option('--clear-secret', 'remove the stored secret').conflicts(['secretStdin', 'secretFromEnv']))
      .addOption(new Option('--clear-env-var-name', 'token: stop injecting it').conflicts('envVarName'))
      .addOption(new Option('--clear-headers', 'mcp: send no headers').conflicts('header')),
  ).action(async (ref: string, flags: UpdateFlags, cmd: Command) => {
    const ctx = contextOf(cmd);
    const secret = readSecret(flags, ctx.env);
    const body: ConnectionUpdateParams = {
      ...(flags.name === undefined ? {} : { name: flags.name }),
      ...(flags.enable === true ? { is_enabled: true } : flags.disable === true ? { is_enabled: false } : {}),
      ...(secret !== undefined ? { secret } : flags.clearSecret === true ? { secret: null } : {}),
      ...(flags.envVarName !== undefined ? { env_var_name: flags.envVarName } : flags.clearEnvVarName === true ? { env_var_name: null } : {}),
      ...(flags.url === undefined ? {} : { url: flags.url }),
      ...(flags.transport === undefined ? {} : { transport: flags.transport }),
      ...(flags.header !== undefined ? { headers: headersOf(flags.header) } : flags.clearHeaders === true ? { headers: null } : {}),
    };
    if (Object.keys(body).length === 0) throw new UsageError('nothing to change: give at least one flag');
    await updateConnection(ctx, ref, body);
  });
}

export async function updateConnection(ctx: CliContext, ref: string, body: ConnectionUpdateParams): Promise<void> {
  const api = ctx.api();
  const connection = await api.connections.update(await resolveConnection(api, ref), body);
  printConnection(ctx, connection);
  if (body.url !== undefined) await warnOfUnreachableProxy(ctx, connection);
}
