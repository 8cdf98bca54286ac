import { createInterface } from 'node:readline/promises';
import type { Command } from 'commander';
import { readDaemonState } from '../../../src/runtime/daemon-state.js';
import { writeCredentials } from '../../../src/runtime/credentials.js';
import { dataPaths } from '../../../src/runtime/paths.js';
import { checkedApiUrl } from '../../api-address.js';
import { UsageError, UserError } from '../../cli-errors.js';
import { apiClient, contextOf, type CliContext } from '../../context.js';
import { examples } from '../../help.js';

export interface LoginOptions {
  url?: string;
  key?: string;
}

export function registerLogin(program: Command): void {
  program
    .command('login')
    .description('save the API address and key for later commands (0600 in <home>/credentials.json); the key is read from stdin unless --key is given')
    .option('--url <url>', 'API address (default: ERRAND_API_URL, else the daemon running on this data directory, found anew each time)')
    .option('--key <key>', 'API key (prefer stdin: a flag is visible in the process list and shell history)')
    .addHelpText('after', examples('echo "$ERRAND_API_KEY" | errand login --url http://127.0.0.1:7370', 'errand login   # the daemon on this data directory; paste the key'))
    .action(async (flags: LoginOptions, cmd: Command) => {
      await login(contextOf(cmd), flags);
    });
}

export async function login(ctx: CliContext, options: LoginOptions): Promise<void> {
  const paths = dataPaths(ctx.home);
  // An address named explicitly is saved; one found from the running daemon is not, since its port may change.
  const explicitUrl = options.url !== undefined ? checkedApiUrl(options.url, '--url') : ctx.env.ERRAND_API_URL ? checkedApiUrl(ctx.env.ERRAND_API_URL, 'ERRAND_API_URL') : undefined;
  const url = explicitUrl ?? readDaemonState(paths.daemonState)?.url;
  if (!url) throw new UserError(`no daemon runs on ${ctx.home}; give the API address with --url`, 'no_daemon');
  const key = (options.key ?? (await readKey())).trim();
  if (key === '') throw new UsageError('no API key given (pass it on stdin or with --key)', 'missing_api_key', '--key');

  await apiClient({ url, key }).projects.list({ limit: 1 });
  writeCredentials(paths.credentials, { api_url: explicitUrl ?? null, api_key: key });
  ctx.out.result({ api_url: url, saved_url: explicitUrl ?? null, credentials: paths.credentials }, () =>
    ctx.out.line(`logged in to ${url}; saved to ${paths.credentials}`),
  );
}

async function readKey(): Promise<string> {
  if (process.stdin.isTTY) {
    const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
    try {
      return await rl.question('API key: ');
    } finally {
      rl.close();
    }
  }
  let text = '';
  for await (const chunk of process.stdin) text += String(chunk);
  return text.split('\n')[0] ?? '';
}
