import { Option, type Command } from 'commander';
import type { ConnectLink, ConnectLinkParams, Errand, ResponseOf } from '../../api.js';
import { SilentExit } from '../../cli-errors.js';
import { contextOf, type CliContext } from '../../context.js';
import { integerFlag } from '../../flag-parsers.js';
import { localTime } from '../../local-time.js';
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

export async function linkConnection(ctx: CliContext, options: { body: ConnectLinkParams; wait: boolean; intervalMs: number }): Promise<void> {
  const api = ctx.api();
  const link = await api.connections.createLink(options.body);
  ctx.out.result(link, () => {
    ctx.out.line(link.url);
    ctx.out.note(`open the link above in a browser before ${localTime(link.expires_at)} to connect ${options.body.provider}; it works once`);
  });
  if (!options.wait) return;
  const abort = new AbortController();
  const onInt = (): void => abort.abort();
  process.on('SIGINT', onInt);
  try {
    const ended = await waitForFlow(ctx, api, link, options.intervalMs, abort.signal);
    const connection = await api.connections.get(link.connection_id);
    ctx.out.result(connection, () => undefined);
    switch (ended.status) {
      case 'authenticated':
        ctx.out.note(`connected: ${connection.name} (${connection.id}) is authenticated`);
        return;
      case 'failed':
        ctx.out.note(
          `not connected: ${ended.detail ?? 'the flow failed'}` +
            (connection.auth_status === 'authenticated' ? `; ${connection.name} keeps the tokens it had, and stays authenticated` : ''),
        );
        throw new SilentExit(1);
      case 'expired':
        ctx.out.note(`not connected: the link expired before anyone finished connecting`);
        throw new SilentExit(1);
      default: {
        const unexpected: never = ended.status;
        throw new Error(`the flow ended as ${String(unexpected)}`);
      }
    }
  } catch (err) {
    if (!abort.signal.aborted) throw err;
    ctx.out.note(`stopped waiting; the link works until ${localTime(link.expires_at)} (${ctx.cliName} connections get ${link.connection_id})`);
    throw new SilentExit(130);
  } finally {
    process.off('SIGINT', onInt);
  }
}

type EndedFlow = ConnectLink & { status: 'authenticated' | 'failed' | 'expired' };
/** A connect link as it is made (POST /v1/connections/links): its url among the rest. */
type NewLink = ResponseOf<'/v1/connections/links', 'post'>;

/**
 * Polls the link until its flow has ended: authenticated, failed, or expired (unused, or opened and not finished in
 * time). Progress goes to stderr: one line kept up to date on a terminal, else a line per change.
 */
async function waitForFlow(ctx: CliContext, api: Errand, link: NewLink, intervalMs: number, signal: AbortSignal): Promise<EndedFlow> {
  const live = ctx.interactive && !ctx.json;
  let shown = '';
  const show = (text: string): void => {
    if (live) process.stderr.write(`\r\x1b[2K${text}`);
    else if (text.replace(/ \(\d+:\d\d left\)$/, '') !== shown.replace(/ \(\d+:\d\d left\)$/, '')) ctx.out.note(text);
    shown = text;
  };
  try {
    for (;;) {
      signal.throwIfAborted();
      const flow = await api.connections.getLink(link.id, { signal });
      switch (flow.status) {
        case 'authenticated':
        case 'failed':
        case 'expired':
          return flow as EndedFlow;
        case 'pending':
          show(`waiting for someone to open the link and approve (${minutes(Date.parse(flow.expires_at) - Date.now())} left)`);
          break;
        case 'opened':
          show(`the link was opened; waiting for the sign-in to finish (${minutes(Date.parse(flow.expires_at) - Date.now())} left)`);
          break;
        default: {
          const unexpected: never = flow.status;
          throw new Error(`unknown link status ${String(unexpected)}`);
        }
      }
      await sleep(intervalMs, signal);
    }
  } finally {
    if (live && shown !== '') process.stderr.write('\r\x1b[2K');
  }
}

function minutes(ms: number): string {
  const s = Math.max(0, Math.ceil(ms / 1000));
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
