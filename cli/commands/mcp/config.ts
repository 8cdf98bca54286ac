import { Option, type Command } from 'commander';
import { loadConfig } from '../../../src/config/load.js';
import { readCredentials } from '../../../src/runtime/credentials.js';
import { readDaemonState } from '../../../src/runtime/daemon-state.js';
import { dataPaths } from '../../../src/runtime/paths.js';
import { hostForUrl } from '../../../src/runtime/public-address.js';
import { contextOf, type CliContext } from '../../context.js';
import { examples } from '../../help.js';

const CLIENTS = ['claude-code', 'claude-desktop', 'cursor'] as const;
type McpClientName = (typeof CLIENTS)[number];

export interface McpConfigOptions {
  client?: McpClientName;
  /** Snippets that send an API key from ERRAND_API_KEY instead of signing in with OAuth. */
  apiKey: boolean;
}

interface Snippet {
  client: McpClientName;
  title: string;
  /** Where the snippet goes. */
  where: string;
  /** A command to run, or a JSON document to merge into the client's configuration. */
  command?: string;
  json?: object;
}

export function registerMcpConfig(mcp: Command): void {
  mcp
    .command('config')
    .description("print what to add to Claude Code, Claude Desktop or Cursor to use Errand's MCP endpoint")
    .addOption(new Option('--client <name>', 'only this client').choices(CLIENTS))
    .option('--api-key', 'send the API key in $ERRAND_API_KEY instead of signing in through the browser (OAuth)')
    .addHelpText('after', examples('errand mcp config', 'errand mcp config --client claude-code --api-key'))
    .action(async (flags: { client?: McpClientName; apiKey?: boolean }, cmd: Command) => {
      mcpConfig(contextOf(cmd), { apiKey: flags.apiKey === true, ...(flags.client === undefined ? {} : { client: flags.client }) });
    });
}

export function mcpConfig(ctx: CliContext, options: McpConfigOptions): void {
  const url = `${baseUrl(ctx).replace(/\/+$/, '')}/mcp`;
  const snippets = snippetsFor(url, options.apiKey).filter((s) => options.client === undefined || s.client === options.client);
  ctx.out.result({ url, auth: options.apiKey ? 'api_key' : 'oauth', clients: snippets }, () => {
    ctx.out.line(`Errand's MCP endpoint: ${url}`);
    ctx.out.line(
      options.apiKey
        ? 'The snippets send the API key in $ERRAND_API_KEY; set it where the client runs (errand keys create mints one).'
        : 'Clients sign in through the browser (OAuth) when they first connect; --api-key prints snippets that send an API key instead.',
    );
    for (const s of snippets) {
      ctx.out.line();
      ctx.out.line(`${s.title} (${s.where}):`);
      ctx.out.line(s.command ?? JSON.stringify(s.json, null, 2));
    }
  });
}

function snippetsFor(url: string, apiKey: boolean): Snippet[] {
  return [
    {
      client: 'claude-code',
      title: 'Claude Code',
      where: 'run in a terminal',
      command: `claude mcp add --transport http errand ${url}${apiKey ? ' --header "Authorization: Bearer $ERRAND_API_KEY"' : ''}`,
    },
    {
      client: 'claude-desktop',
      title: 'Claude Desktop',
      // Custom connectors are reached from Anthropic's servers, so they suit a public https address; the mcp-remote
      // bridge runs beside Claude Desktop and reaches a daemon on this machine too.
      where: 'claude_desktop_config.json; a public https address can instead be added under Settings > Connectors',
      json: {
        mcpServers: {
          errand: apiKey
            ? { command: 'npx', args: ['-y', 'mcp-remote', url, '--header', 'Authorization:${ERRAND_AUTH_HEADER}'], env: { ERRAND_AUTH_HEADER: 'Bearer <your API key>' } }
            : { command: 'npx', args: ['-y', 'mcp-remote', url] },
        },
      },
    },
    {
      client: 'cursor',
      title: 'Cursor',
      where: '~/.cursor/mcp.json, or .cursor/mcp.json in a project',
      json: { mcpServers: { errand: apiKey ? { url, headers: { Authorization: 'Bearer ${env:ERRAND_API_KEY}' } } : { url } } },
    },
  ];
}

/**
 * The address clients reach the daemon at: `public_url` when the configuration sets it (tokens are issued for
 * that address), else the address the CLI talks to, else the daemon running on this data directory, else the
 * configured host and port.
 */
function baseUrl(ctx: CliContext): string {
  const config = loadConfig({ home: ctx.home, env: ctx.env });
  const paths = dataPaths(ctx.home);
  return (
    config.public_url ??
    (ctx.env.ERRAND_API_URL || null) ??
    readCredentials(paths.credentials)?.api_url ??
    readDaemonState(paths.daemonState)?.url ??
    `http://${hostForUrl(config['server.host'])}:${config['server.port']}`
  );
}
