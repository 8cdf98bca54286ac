import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { resolveConfig, defaultHome } from '../src/config/load.js';
import { plainSecretsWarning } from '../src/config/plain-secrets.js';
import { ConfigError } from '../src/errors.js';
import { clearDaemonState, readDaemonState, writeDaemonState } from '../src/runtime/daemon-state.js';
import { tightenDataDirectory, type TightenReport } from '../src/runtime/data-directory-modes.js';
import { dataPaths } from '../src/runtime/paths.js';
import { firstStart } from './first-start.js';
import { firstStartNotice } from '../src/runtime/first-start-notice.js';
import { listenFailure } from './listen-failure.js';
import { createLoggers } from './logger.js';
import { createDaemon } from './wiring.js';

const USAGE = `Usage: errandd [--port N] [--host H] [--dev] [--home DIR] [--set key=value ...]

Runs the Errand daemon in the foreground: the /v1 HTTP API, the run engine, webhooks and schedules.
  --port N        port to listen on (0 picks a free one; default from config server.port)
  --host H        address to bind (default 127.0.0.1)
  --dev           development mode: callbacks and links may use http and loopback addresses
  --home DIR      data directory (default $ERRAND_HOME or ~/.errand)
  --set key=value set a configuration key (beats ERRAND_* variables and config.json); not a secret key
                  (mail.smtp_url, oauth.providers): set those with 'errand config set-secret' or ERRAND_<KEY>_FILE
`;

export async function main(argv: string[]): Promise<number> {
  let args;
  try {
    args = parseArgs({
      args: argv,
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        dev: { type: 'boolean' },
        home: { type: 'string' },
        set: { type: 'string', multiple: true },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }).values;
  } catch (err) {
    process.stderr.write(`errandd: ${(err as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (args.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const home = args.home ?? defaultHome();
  const flags: Record<string, unknown> = {};
  for (const pair of args.set ?? []) {
    const eq = pair.indexOf('=');
    if (eq <= 0) {
      process.stderr.write(`errandd: --set takes key=value, got '${pair}'\n`);
      return 2;
    }
    flags[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  if (args.port !== undefined) flags['server.port'] = args.port;
  if (args.host !== undefined) flags['server.host'] = args.host;
  if (args.dev) flags.dev = true;

  let resolved;
  let permissions: TightenReport;
  try {
    mkdirSync(home, { recursive: true, mode: 0o700 });
    permissions = tightenDataDirectory(home);
    resolved = resolveConfig({ home, flags });
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`errandd: ${err.message}\n`);
      return 2;
    }
    throw err;
  }
  const config = resolved.config;
  const paths = dataPaths(home);
  const running = readDaemonState(paths.daemonState);
  if (running && running.pid !== process.pid) {
    process.stderr.write(`errandd: a daemon (pid ${running.pid}) already serves ${home} at ${running.url}\n`);
    return 1;
  }

  // `errand daemon start` reads the announcements below and then closes its end of our stdout; a later write
  // must not kill the daemon with EPIPE.
  process.stdout.on('error', () => undefined);
  const logFile = config['log.file'];
  const { logger, access } = createLoggers(
    config['log.level'],
    { pretty: process.stderr.isTTY === true, colour: !process.env.NO_COLOR },
    logFile === null ? null : { path: resolve(home, logFile), maxBytes: config['log.max_size_mb'] * 1024 * 1024, keep: config['log.max_files'] },
  );
  // Lines are written at the end of each turn; a crash or process.exit() writes what its turn had.
  process.on('exit', () => logger.flush());
  let daemon;
  try {
    daemon = await createDaemon({ home, config, logger, accessLogger: access });
  } catch (err) {
    // Settings whose meaning is checked when the daemon is built (oauth.providers) are reported like any other.
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`errandd: ${err.message}\n`);
    return 2;
  }
  // Logged once the configuration has proved usable, so that a refused start says only why it was refused.
  if (permissions.tightened.length > 0) {
    logger.warn({ home, count: permissions.tightened.length, paths: permissions.tightened.slice(0, 20) }, 'other users could read the data directory; took their permissions off');
  }
  if (permissions.failed.length > 0) logger.warn({ home, paths: permissions.failed.slice(0, 20) }, "could not take other users' permissions off these paths of the data directory");
  let url: string;
  try {
    url = await daemon.start();
  } catch (err) {
    const reason = listenFailure(err, config['server.host'], config['server.port']);
    // Whatever failed, the parts already started (the host-network watcher, the pool) would keep the process alive.
    await daemon.close();
    if (reason === null) throw err;
    process.stderr.write(`errandd: ${reason}\n`);
    return 1;
  }
  // Only once the API listens: a key minted by a start that then fails would never be shown again.
  const first = firstStart(daemon.admin.orgs, daemon.admin.keys, paths.credentials);
  // Loud, and on every start: without a provider every run fails at once, and the log line alone is easy to miss.
  const plainSecrets = plainSecretsWarning(resolved);
  const warning =
    (daemon.modelProviderProblem === null
      ? ''
      : `WARNING: no model provider is configured: ${daemon.modelProviderProblem}.\n` +
        'WARNING: every run will fail at once with auth_required until it is set and errandd restarted (docs/configuration.md).\n' +
        'WARNING: test-mode runs need no model: `errand keys create --test` mints a key for them (README.md, "A first run").\n') +
    (plainSecrets === null ? '' : `WARNING: ${plainSecrets}.\n`) +
    resolved.renamedKeys.map((renamed) => `WARNING: ${renamed} (docs/configuration.md, "Renamed keys").\n`).join('');
  const mail = daemon.mailStatus();
  // Where mail comes in is what an MX record or a port redirect must point at (issue 21, item 11).
  const receiving = mail.receiving === null ? '' : `receiving mail for *@${mail.relay_domain} on ${mail.receiving} (SMTP)\n`;
  const mailWarning = mail.relay_domain !== null && mail.problem !== null ? `WARNING: ${mail.problem}; set it and restart errandd (README.md, "Email").\n` : '';
  // The handlers go on before the address is printed: a reader that signals as soon as it sees the address would
  // otherwise find the default disposition and kill errandd without draining (exit 143).
  const stopped = new Promise<number>((finish) => {
    let stopping = false;
    const stop = (signal: string) => {
      if (stopping) {
        logger.warn({ signal }, 'second signal: exiting without draining');
        process.exit(1);
      }
      stopping = true;
      logger.info({ signal }, 'draining and stopping');
      daemon
        .close()
        .then(() => {
          clearDaemonState(paths.daemonState, process.pid);
          logger.info('stopped');
          logger.flush();
          finish(0);
        })
        .catch((err: unknown) => {
          logger.error({ err }, 'error while stopping');
          clearDaemonState(paths.daemonState, process.pid);
          finish(1);
        });
    };
    process.on('SIGTERM', () => stop('SIGTERM'));
    process.on('SIGINT', () => stop('SIGINT'));
  });
  // The start's log lines go out first, so that on a terminal (stderr and stdout the same screen) the address, the
  // first start's notice and the warnings come after them, together, rather than between them.
  logger.info({ url, home, dev: config.dev }, 'daemon started');
  if (plainSecrets !== null) logger.warn({ keys: resolved.plainSecrets }, plainSecrets);
  for (const renamed of resolved.renamedKeys) logger.warn(renamed);
  logger.flush();
  // One write, so that a reader of the pipe gets the address, the first start's notice and the warnings together.
  process.stdout.write(`listening on ${url}\n${receiving}${first ? firstStartNotice(first, paths.credentials) : ''}${warning}${mailWarning}`);
  const smtp = mail.receiving;
  const log = logFile === null ? null : resolve(home, logFile);
  writeDaemonState(paths.daemonState, { pid: process.pid, url, started_at: new Date().toISOString(), ...(smtp === null ? {} : { smtp }), log });

  return stopped;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`errandd: ${(err as Error).stack ?? String(err)}\n`);
    // A start that failed unexpectedly may have left timers or sockets behind: exit rather than hang unseen.
    process.exit(1);
  },
);
