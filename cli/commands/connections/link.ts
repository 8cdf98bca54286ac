import { Option, type Command } from 'commander';
import { paginate, type ApiClient, type Connection, type ConnectionLink, type CreateLinkBody } from '../../api-client.js';
import { SilentExit } from '../../cli-errors.js';
import { contextOf, type CliContext } from '../../context.js';
import { integerFlag } from '../../flag-parsers.js';
import { examples } from '../../help.js';

interface LinkFlags {
  provider: string;
  name?: string;
  project?: string;
  envVarName?: string;
  redirectUrl?: string;
  wait: boolean;
  interval: number;
}

export function registerConnectionsLink(connections: Command): void {
  connections
    .command('link')
    .description('connect an OAuth provider through the hosted flow: prints a link to open in a browser, then waits until the connection is made')
    .addHelpText('after', examples('errand connections link --provider google', 'errand connections link --provider github --name gh --no-wait --json'))
    .requiredOption('--provider <name>', 'a provider the operator configured (oauth.providers)')
    .option('--name <name>', 'name of the connection (default: the provider); an existing one of the same provider connects again')
    .option('--project <id>', "only this project's runs use it")
    .option('--env-var-name <NAME>', 'the variable runs get the access token in')
    .option('--redirect-url <url>', 'where the browser goes afterwards (with connection_id and status in the query)')
    .option('--no-wait', 'print the link and return')
    .addOption(new Option('--interval <seconds>', 'how often to look').argParser(integerFlag(1, 60)).default(1).hideHelp())
    .addHelpText('after', '\nWith --json: the link as one JSON document at once, then (unless --no-wait) the connection as another when done.\nExit status: 0 connected, 1 failed or the link expired, 130 stopped waiting (Ctrl-C).')
    .action(async (flags: LinkFlags, cmd: Command) => {
      await linkConnection(contextOf(cmd), {
        body: {
          provider: flags.provider,
          ...(flags.name === undefined ? {} : { name: flags.name }),
          ...(flags.project === undefined ? {} : { project_id: flags.project }),
          ...(flags.envVarName === undefined ? {} : { env_var_name: flags.envVarName }),
          ...(flags.redirectUrl === undefined ? {} : { redirect_url: flags.redirectUrl }),
        },
        wait: flags.wait,
        intervalMs: flags.interval * 1000,
      });
    });
}

export async function linkConnection(ctx: CliContext, options: { body: CreateLinkBody; wait: boolean; intervalMs: number }): Promise<void> {
  const api = ctx.api();
  // Connecting an existing connection again: only a status recorded after this one ends the wait.
  let since: string | null = null;
  for await (const c of paginate((q) => api.listConnections(q))) {
    if (c.name === (options.body.name ?? options.body.provider) && c.project_id === (options.body.project_id ?? null)) since = c.auth_checked_at;
  }
  const link = await api.createConnectionLink(options.body);
  ctx.out.result(link, () => {
    ctx.out.line(link.url);
    ctx.out.note(`open the link above in a browser before ${clock(link.expires_at)} to connect ${options.body.provider}; it works once`);
  });
  if (!options.wait) return;
  const abort = new AbortController();
  const onInt = (): void => abort.abort();
  process.on('SIGINT', onInt);
  try {
    const { connection, expired } = await waitForConnection(ctx, api, link, since, options.intervalMs, abort.signal);
    ctx.out.result(connection, () => undefined);
    if (expired) ctx.out.note('not connected: the link expired before anyone finished connecting');
    else if (connection.auth_status === 'authenticated') ctx.out.note(`connected: ${connection.name} (${connection.id}) is authenticated`);
    else ctx.out.note(`not connected: ${connection.auth_detail ?? connection.auth_status}`);
    if (expired || connection.auth_status !== 'authenticated') throw new SilentExit(1);
  } catch (err) {
    if (!abort.signal.aborted) throw err;
    ctx.out.note(`stopped waiting; the link works until ${clock(link.expires_at)} (errand connections get ${link.connection_id})`);
    throw new SilentExit(130);
  } finally {
    process.off('SIGINT', onInt);
  }
}

/**
 * Polls the connection until the flow this link started has ended (a status recorded after `since`), or the link
 * has expired unused. Progress goes to stderr: one line kept up to date on a terminal, else a line per change.
 */
async function waitForConnection(
  ctx: CliContext,
  api: ApiClient,
  link: ConnectionLink,
  since: string | null,
  intervalMs: number,
  signal: AbortSignal,
): Promise<{ connection: Connection; expired: boolean }> {
  const live = process.stderr.isTTY === true && !ctx.json;
  const expires = Date.parse(link.expires_at);
  let shown = '';
  const show = (text: string): void => {
    if (live) process.stderr.write(`\r\x1b[2K${text}`);
    else if (text.replace(/ \(\d+:\d\d left\)$/, '') !== shown.replace(/ \(\d+:\d\d left\)$/, '')) ctx.out.note(text);
    shown = text;
  };
  try {
    for (;;) {
      signal.throwIfAborted();
      const connection = await api.getConnection(link.connection_id, signal);
      const ended = connection.auth_checked_at !== since && (connection.auth_status === 'authenticated' || connection.auth_status === 'failed');
      if (ended) return { connection, expired: false };
      const left = expires - Date.now();
      if (left <= 0) return { connection, expired: true };
      show(`waiting for someone to open the link and approve (${minutes(left)} left)`);
      await sleep(intervalMs, signal);
    }
  } finally {
    if (live && shown !== '') process.stderr.write('\r\x1b[2K');
  }
}

function clock(iso: string): string {
  return new Date(iso).toLocaleTimeString();
}

function minutes(ms: number): string {
  const s = Math.ceil(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}
