import type { Command } from 'commander';
import { resolveConfig, sourceName } from '../../../src/config/load.js';
import { plainSecretsWarning } from '../../../src/config/plain-secrets.js';
import { CONFIG_KEYS, isSecretKey, type ConfigKey } from '../../../src/config/schema.js';
import { ConfigError } from '../../../src/errors.js';
import { UsageError } from '../../cli-errors.js';
import { contextOf, type CliContext } from '../../context.js';
import { examples } from '../../help.js';

export interface ConfigEntry {
  key: ConfigKey;
  /** Null for a secret key, whether set or not: its value is never shown. */
  value: unknown;
  secret: boolean;
  /** `default`, `config.json`, `sealed-config.json`, `flag`, or the environment variable that set it. */
  source: string;
}

export function registerConfigShow(config: Command): void {
  config
    .command('show')
    .description('every configuration key as a daemon started from this shell would have it, and where it is set; secret keys show only where')
    .argument('[prefix]', 'only keys that start with this (mail, sandbox.driver, ...)')
    .addHelpText('after', examples('errand config show', 'errand config show mail', "errand config show --json | jq '.keys[] | select(.source != \"default\")'"))
    .action(async (prefix: string | undefined, _flags: unknown, cmd: Command) => {
      await showConfig(contextOf(cmd), prefix);
    });
}

export async function showConfig(ctx: CliContext, prefix?: string): Promise<ConfigEntry[]> {
  let resolved;
  try {
    resolved = resolveConfig({ home: ctx.home, env: ctx.env });
  } catch (err) {
    if (err instanceof ConfigError) throw new UsageError(err.message, 'invalid_config', err.key);
    throw err;
  }
  const keys = (Object.keys(CONFIG_KEYS) as ConfigKey[]).filter((key) => prefix === undefined || key.startsWith(prefix));
  if (keys.length === 0) throw new UsageError(`no configuration key starts with ${prefix}`);
  const entries = keys.map((key): ConfigEntry => {
    const secret = isSecretKey(key);
    return { key, value: secret ? null : resolved.config[key], secret, source: sourceName(resolved.sources[key]) };
  });
  const warning = plainSecretsWarning(resolved);
  ctx.out.result({ object: 'config', home: ctx.home, keys: entries, plain_secrets: resolved.plainSecrets }, () => {
    ctx.out.table(entries, [
      { header: 'KEY', value: (e) => e.key },
      { header: 'VALUE', value: (e) => (e.secret ? (e.source === 'default' ? null : '(secret, not shown)') : shown(e.value)), max: 80 },
      { header: 'SET IN', value: (e) => e.source },
    ]);
  });
  if (warning !== null) ctx.out.warn(warning);
  for (const renamed of resolved.renamedKeys) ctx.out.warn(renamed);
  return entries;
}

function shown(value: unknown): string | null {
  if (value === null) return null;
  return typeof value === 'string' ? value : JSON.stringify(value);
}
