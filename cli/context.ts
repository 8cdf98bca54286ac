import type { Command } from 'commander';
import { defaultHome } from '../src/config/load.js';
import { packageVersion } from '../src/package-root.js';
import { Errand, VERSION } from './api.js';
import { apiOrigin, resolveApiAddress, type ApiAddress } from './api-address.js';
import { cliName } from './invocation.js';
import { Output } from './output.js';

export interface GlobalOptions {
  home: string;
  json: boolean;
}

/** What every verb's run function receives: the global options, the printer, and the API on demand. */
export interface CliContext extends GlobalOptions {
  out: Output;
  env: NodeJS.ProcessEnv;
  /** Progress may be drawn live on stderr (redrawn in place): it is a terminal, outside CI. Otherwise it is plain lines. */
  interactive: boolean;
  /** How the user ran this CLI (`errand`, `npx errand`, `./bin/errand`), for the commands that hints name. */
  cliName: string;
  /** The API, through the SDK: resolved when first asked for, so admin commands work without a daemon or key. */
  api(): Errand;
  address(): ApiAddress;
}

export interface ContextOptions {
  env?: NodeJS.ProcessEnv;
}

/**
 * How long one request may wait for its answer. An event stream waits this long for its headers only, and an upload
 * counts it from its last byte.
 */
const REQUEST_TIMEOUT_MS = 30_000;

export function createContext(globals: GlobalOptions, options: ContextOptions = {}): CliContext {
  const env = options.env ?? process.env;
  let client: Errand | null = null;
  const address = () => resolveApiAddress(globals.home, env);
  return {
    ...globals,
    env,
    out: new Output(globals.json),
    interactive: process.stderr.isTTY === true && !underCi(env),
    cliName: cliName(env),
    address,
    api() {
      client ??= apiClient(address());
      return client;
    },
  };
}

/** The context of the command commander is running, from the global options wherever they were typed. */
export function contextOf(cmd: Command): CliContext {
  const opts = cmd.optsWithGlobals<{ home?: string; json?: boolean }>();
  return createContext({ home: opts.home ?? defaultHome(), json: opts.json === true });
}

/**
 * Whether a CI runner set its markers, by the rule Ink itself follows (is-in-ci): there Ink draws no live line, only
 * the finished ones, so progress is better told as plain lines that say which run they belong to.
 */
function underCi(env: NodeJS.ProcessEnv): boolean {
  return ['CI', 'CONTINUOUS_INTEGRATION'].some((key) => key in env && env[key] !== '0' && env[key] !== 'false');
}

/**
 * The SDK's client as the CLI uses it: every call tried once (an error is shown as the API gave it, at once; the
 * user runs the command again), and a User-Agent that starts with `errand-cli`, by which the daemon tells the CLI's
 * answers to a person's question from other callers'.
 */
export function apiClient(address: Pick<ApiAddress, 'url' | 'key'>): Errand {
  return new Errand({
    baseUrl: apiOrigin(address.url),
    apiKey: address.key,
    maxRetries: 0,
    timeoutMs: REQUEST_TIMEOUT_MS,
    defaultHeaders: { 'user-agent': `errand-cli/${packageVersion()} errand-sdk-typescript/${VERSION}` },
  });
}
