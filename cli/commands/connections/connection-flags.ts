import { Option, type Command } from 'commander';
import { UsageError } from '../../cli-errors.js';
import { collect } from '../../flag-parsers.js';
import type { SecretFlags } from './secret-input.js';

export interface ConnectionFieldFlags extends SecretFlags {
  envVarName?: string;
  url?: string;
  transport?: 'http' | 'sse';
  header?: string[];
}

/** The members a connection is made or changed with; secrets only from stdin or the environment. */
export function addConnectionFieldOptions(cmd: Command): Command {
  return cmd
    .option('--secret-stdin', 'read the secret from stdin (one trailing newline is dropped)')
    .option('--secret-from-env <VAR>', 'take the secret from this environment variable')
    .option('--env-var-name <NAME>', 'token: the variable runs get the secret in')
    .option('--url <url>', 'mcp: the server URL; proxy: http://, https:// or socks5://host:port (credentials in --secret-stdin as user:password, not here: argv is visible to every local user)')
    .addOption(new Option('--transport <transport>', 'mcp: http (streamable HTTP, falling back to SSE) or sse').choices(['http', 'sse']))
    .option('--header <"Name: value">', 'mcp: a request header; ${SECRET} in the value stands for the secret (repeatable)', collect);
}

/** `Name: value` flags as a headers object. */
export function headersOf(flags: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const flag of flags) {
    const colon = flag.indexOf(':');
    if (colon <= 0) throw new UsageError(`--header takes "Name: value", got '${flag}'`);
    headers[flag.slice(0, colon).trim()] = flag.slice(colon + 1).trim();
  }
  return headers;
}
