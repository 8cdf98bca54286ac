import type { Command } from 'commander';
import { join } from 'node:path';
import { packageRoot } from '../../../src/package-root.js';
import { collect } from '../../flag-parsers.js';

/** The flags `errand daemon run|start` pass through to errandd. */
export interface DaemonFlags {
  port?: string;
  host?: string;
  dev: boolean;
  set: string[];
}

export function addDaemonFlags(cmd: Command): Command {
  return cmd
    .option('--port <n>', 'port to listen on (0 picks a free one; default from config server.port)')
    .option('--host <address>', 'address to bind (default 127.0.0.1)')
    .option('--dev', 'development mode: callbacks and links may use http and loopback addresses')
    .option('--set <key=value>', 'set a configuration key (repeatable)', collect);
}

export function daemonFlagsOf(flags: { port?: string; host?: string; dev?: boolean; set?: string[] }): DaemonFlags {
  return {
    ...(flags.port === undefined ? {} : { port: flags.port }),
    ...(flags.host === undefined ? {} : { host: flags.host }),
    dev: flags.dev === true,
    set: flags.set ?? [],
  };
}

/** errandd's argv for these flags on this data directory. */
export function erranddArgs(home: string, flags: DaemonFlags): string[] {
  return [
    erranddPath(),
    '--home',
    home,
    ...(flags.port === undefined ? [] : ['--port', flags.port]),
    ...(flags.host === undefined ? [] : ['--host', flags.host]),
    ...(flags.dev ? ['--dev'] : []),
    ...flags.set.flatMap((pair) => ['--set', pair]),
  ];
}

export function erranddPath(): string {
  return join(packageRoot(import.meta.url), 'bin', 'errandd');
}
