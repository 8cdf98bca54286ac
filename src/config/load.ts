import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../errors.js';
import { findMasterKey, loadMasterKeyring, MASTER_KEY_ENV, MASTER_KEY_FILE, type MasterKeyring } from '../secrets/master-key.js';
import { SecretBox } from '../secrets/secret-box.js';
import { CONFIG_FILE, readConfigFile } from './config-file.js';
import { CONFIG_KEYS, envName, fileEnvName, isSecretKey, SECRET_KEYS, type Config, type ConfigKey, type KeySpec } from './schema.js';
import { SealedConfig, SEALED_CONFIG_FILE } from './sealed-config.js';
import { renamedVariables, underCurrentNames, unknownKey } from './renamed-keys.js';

export interface LoadConfigOptions {
  /** The data directory; its `config.json` is the lowest layer, its sealed secrets the next. */
  home: string;
  env?: NodeJS.ProcessEnv;
  /** Values given as flags, by key; they beat the environment, which beats the file. */
  flags?: Partial<Record<string, unknown>>;
}

/** Where a key's value came from (`errand config show`); a secret's source is shown, never its value. */
export type ConfigSource =
  | { layer: 'default' }
  | { layer: 'config.json' }
  | { layer: 'sealed' }
  | { layer: 'environment'; variable: string }
  | { layer: 'flag' };

/** The source as people read it: `default`, `config.json`, `sealed-config.json`, `flag`, or the variable's name. */
export function sourceName(source: ConfigSource): string {
  switch (source.layer) {
    case 'default':
    case 'config.json':
    case 'flag':
      return source.layer;
    case 'sealed':
      return SEALED_CONFIG_FILE;
    case 'environment':
      return source.variable;
    default: {
      const never: never = source;
      return never;
    }
  }
}

export interface ResolvedConfig {
  config: Config;
  sources: Readonly<Record<ConfigKey, ConfigSource>>;
  /**
   * Secret keys that `config.json` holds in plain text. They still work (an installation set up before secrets were
   * sealed keeps starting) when nothing above sets them, but the daemon and `errand doctor` warn, naming
   * `errand config seal`, which moves them under the master key.
   */
  plainSecrets: ConfigKey[];
  /**
   * What sets a renamed key under its old name (renamed-keys.ts), said as a warning naming the new name: the daemon
   * prints and logs them at start, `errand config show` and `errand doctor` show them. Names keys, never values.
   */
  renamedKeys: string[];
}

/** Provider variables users already have set; an ERRAND_ variable or a flag still wins over them. */
const FOREIGN_ENV: Partial<Record<ConfigKey, string>> = {
  'anthropic.base_url': 'ANTHROPIC_BASE_URL',
  'openai.base_url': 'OPENAI_BASE_URL',
};

export function loadConfig(options: LoadConfigOptions): Config {
  return resolveConfig(options).config;
}

/**
 * The configuration and where each value came from. Layers, a later one winning: the default, `config.json`, the
 * sealed secrets of `errand config set-secret`, the environment (`ERRAND_<KEY>`, and for a secret key
 * `ERRAND_<KEY>_FILE`), flags. A secret key cannot be a flag: argv shows in `ps` and in shell history.
 */
export function resolveConfig(options: LoadConfigOptions): ResolvedConfig {
  const env = options.env ?? process.env;
  const variables = renamedVariables(env, ['', '_FILE']);
  const fileRead = readConfigFile(join(options.home, CONFIG_FILE));
  const file = Object.fromEntries(fileRead.values) as Record<string, unknown>;
  const flagsRead = underCurrentNames(new Map(Object.entries(options.flags ?? {})), '--set');
  const flags = Object.fromEntries(flagsRead.values) as Partial<Record<string, unknown>>;
  for (const key of Object.keys(flags)) {
    if (!(key in CONFIG_KEYS)) throw unknownKey(key, '');
    if (isSecretKey(key)) {
      throw new ConfigError(key, `is a secret, which a flag would show in ps and shell history: use errand config set-secret ${key}, ${envName(key)} or ${fileEnvName(key)}`);
    }
  }
  const sealedRead = new SealedConfig(options.home, new SecretBox(() => existingKeyring(options.home, env))).open();
  const sealed = sealedRead.values;
  const out: Record<string, unknown> = {};
  const sources: Partial<Record<ConfigKey, ConfigSource>> = {};
  for (const [key, spec] of Object.entries(CONFIG_KEYS) as [ConfigKey, KeySpec][]) {
    const flag = flags[key];
    const fromEnv = environmentValue(key, env, variables.aliases);
    let raw: unknown = spec.default;
    let source: ConfigSource = { layer: 'default' };
    if (flag !== undefined) [raw, source] = [flag, { layer: 'flag' }];
    else if (fromEnv !== null) [raw, source] = [fromEnv.value, { layer: 'environment', variable: fromEnv.variable }];
    else if (sealed.has(key)) [raw, source] = [sealed.get(key), { layer: 'sealed' }];
    else if (file[key] !== undefined) [raw, source] = [file[key], { layer: 'config.json' }];
    out[key] = parseValue(key, spec, raw);
    sources[key] = source;
  }
  return {
    config: Object.freeze(out) as Config,
    sources: sources as Record<ConfigKey, ConfigSource>,
    plainSecrets: SECRET_KEYS.filter((key) => file[key] !== undefined),
    renamedKeys: [...fileRead.warnings, ...sealedRead.warnings, ...variables.warnings, ...flagsRead.warnings],
  };
}

/**
 * The key's variable, if set and not empty; for a secret key also `ERRAND_<KEY>_FILE`, read from its file. `aliases`
 * names the variable of a renamed key's old name that stands in for one of the key's (renamedVariables).
 */
function environmentValue(key: ConfigKey, env: NodeJS.ProcessEnv, aliases: ReadonlyMap<string, string>): { value: string; variable: string } | null {
  const named = (variable: string): string => (nonEmpty(env[variable]) ? variable : (aliases.get(variable) ?? variable));
  const name = named(envName(key));
  const own = env[name];
  const foreign = FOREIGN_ENV[key];
  const direct = own ?? (foreign === undefined ? undefined : env[foreign]);
  const variable = own === undefined && foreign !== undefined ? foreign : name;
  const fileName = named(fileEnvName(key));
  const path = isSecretKey(key) ? env[fileName] : undefined;
  if (path !== undefined && path !== '') {
    if (direct !== undefined && direct !== '') throw new ConfigError(key, `is set by both ${name} and ${fileName}; keep one`);
    return { value: readSecretFile(key, path, fileName), variable: fileName };
  }
  return direct !== undefined && direct !== '' ? { value: direct, variable } : null;
}

function nonEmpty(value: string | undefined): boolean {
  return value !== undefined && value !== '';
}

function readSecretFile(key: ConfigKey, path: string, variable: string): string {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new ConfigError(key, `${variable} names ${path}, which cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  // One trailing newline is what editors, `echo` and secret managers add; it is not part of the value.
  return text.replace(/\r?\n$/, '');
}

/**
 * The master key that sealed secrets are under, without making one: a new key would open none of them, so a data
 * directory with sealed secrets and no key (a backup restored without it) stops with the reason instead.
 */
function existingKeyring(home: string, env: NodeJS.ProcessEnv): MasterKeyring {
  if (findMasterKey({ home, env }) === null) {
    throw new ConfigError(SEALED_CONFIG_FILE, `holds secrets sealed under a master key that is not here: put it in ${join(home, MASTER_KEY_FILE)} (0600) or ${MASTER_KEY_ENV}`);
  }
  return loadMasterKeyring({ home, env });
}

export function parseValue(key: string, spec: KeySpec, raw: unknown): unknown {
  // A secret's value never appears in a message: it would reach the terminal, the log, or a service manager's journal.
  const got = (value: unknown): string => (spec.secret === true ? 'a value not shown (a secret)' : JSON.stringify(value));
  if (raw === null || raw === undefined) {
    if (spec.nullable) return null;
    throw new ConfigError(key, 'must be set');
  }
  switch (spec.type) {
    case 'string': {
      if (typeof raw !== 'string' || raw === '') throw new ConfigError(key, `must be a non-empty string, got ${got(raw)}`);
      return raw;
    }
    case 'enum': {
      if (typeof raw !== 'string' || !spec.values?.includes(raw)) {
        throw new ConfigError(key, `must be one of ${spec.values?.join(', ')}, got ${got(raw)}`);
      }
      return raw;
    }
    case 'url': {
      if (typeof raw !== 'string') throw new ConfigError(key, `must be a URL, got ${got(raw)}`);
      let url: URL;
      try {
        url = new URL(raw);
      } catch {
        throw new ConfigError(key, `must be an absolute http(s) URL, got ${got(raw)}`);
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(key, `must be an http(s) URL, got ${got(raw)}`);
      return raw.replace(/\/+$/, '');
    }
    case 'boolean': {
      if (typeof raw === 'boolean') return raw;
      if (typeof raw === 'string' && /^(true|1|yes|on)$/i.test(raw)) return true;
      if (typeof raw === 'string' && /^(false|0|no|off)$/i.test(raw)) return false;
      throw new ConfigError(key, `must be true or false, got ${got(raw)}`);
    }
    case 'integer':
    case 'number': {
      const n = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : NaN;
      if (!Number.isFinite(n)) throw new ConfigError(key, `must be a number, got ${got(raw)}`);
      if (spec.type === 'integer' && !Number.isInteger(n)) throw new ConfigError(key, `must be a whole number, got ${got(raw)}`);
      if (spec.min !== undefined && n < spec.min) throw new ConfigError(key, `must be at least ${spec.min}, got ${n}`);
      if (spec.max !== undefined && n > spec.max) throw new ConfigError(key, `must be at most ${spec.max}, got ${n}`);
      return n;
    }
    case 'json-object': {
      let value: unknown = raw;
      if (typeof raw === 'string') {
        try {
          value = JSON.parse(raw);
        } catch {
          throw new ConfigError(key, 'must be a JSON object, and is not valid JSON');
        }
      }
      if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ConfigError(key, 'must be a JSON object');
      return value;
    }
    case 'number-list': {
      const parts = Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(',').map((s) => s.trim()) : null;
      const nums = parts?.map((p) => (typeof p === 'number' ? p : Number(p)));
      if (!nums || nums.length === 0 || nums.some((n) => !Number.isFinite(n) || n < 0)) {
        throw new ConfigError(key, `must be a comma-separated list of non-negative numbers, got ${got(raw)}`);
      }
      return nums;
    }
  }
}

export function defaultHome(env: NodeJS.ProcessEnv = process.env): string {
  return env.ERRAND_HOME && env.ERRAND_HOME !== '' ? env.ERRAND_HOME : join(env.HOME ?? '.', '.errand');
}
