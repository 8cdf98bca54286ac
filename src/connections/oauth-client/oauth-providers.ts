import { ConfigError } from '../../errors.js';
import { CONNECTION_NAME_PATTERN, ENV_VAR_NAME_PATTERN } from '../connection-schemas.js';

/** An OAuth 2 provider the operator configured for hosted connect. */
export interface OAuthProvider {
  name: string;
  authorizeUrl: string;
  tokenUrl: string;
  /** The `iss` its ID tokens carry, when it sends any; default: the origin of `authorizeUrl`. */
  issuer: string;
  clientId: string;
  /** Absent for public clients, which rely on PKCE alone. */
  clientSecret: string | null;
  /** How the client authenticates at the token endpoint when it has a secret. */
  tokenAuth: 'client_secret_post' | 'client_secret_basic';
  scopes: string[];
  /** Extra parameters of the authorization request (`access_type=offline` for Google's refresh tokens). */
  authorizeParams: Record<string, string>;
  /** The variable a run gets the access token in, unless the link names another. */
  envVarName: string;
}

type Preset = Pick<OAuthProvider, 'authorizeUrl' | 'tokenUrl' | 'scopes' | 'authorizeParams' | 'envVarName'> & { tokenAuth?: OAuthProvider['tokenAuth'] };

/** Providers whose endpoints are known: the operator gives only `client_id` and `client_secret` (and may add scopes). */
export const OAUTH_PRESETS: Readonly<Record<string, Preset>> = {
  github: {
    authorizeUrl: 'https://github.com/login/oauth/authorize',
    tokenUrl: 'https://github.com/login/oauth/access_token',
    scopes: ['repo'],
    authorizeParams: {},
    envVarName: 'GITHUB_TOKEN',
  },
  gitlab: {
    authorizeUrl: 'https://gitlab.com/oauth/authorize',
    tokenUrl: 'https://gitlab.com/oauth/token',
    scopes: ['read_api'],
    authorizeParams: {},
    envVarName: 'GITLAB_TOKEN',
  },
  google: {
    authorizeUrl: 'https://accounts.google.com/o/oauth2/v2/auth',
    tokenUrl: 'https://oauth2.googleapis.com/token',
    scopes: ['openid', 'email'],
    // Without these Google gives no refresh token, and the connection would expire within the hour.
    authorizeParams: { access_type: 'offline', prompt: 'consent' },
    envVarName: 'GOOGLE_ACCESS_TOKEN',
  },
  notion: {
    authorizeUrl: 'https://api.notion.com/v1/oauth/authorize',
    tokenUrl: 'https://api.notion.com/v1/oauth/token',
    scopes: [],
    authorizeParams: { owner: 'user' },
    envVarName: 'NOTION_TOKEN',
    tokenAuth: 'client_secret_basic',
  },
};

const FIELDS = new Set(['preset', 'authorize_url', 'token_url', 'issuer', 'client_id', 'client_secret', 'token_auth', 'scopes', 'authorize_params', 'env_var_name']);

/**
 * The `oauth.providers` configuration, checked: each entry names a preset (by its own name or `preset`) or gives
 * both endpoints; endpoints are https, or http only in dev mode. Throws `ConfigError` naming the member.
 */
export function parseOAuthProviders(raw: Readonly<Record<string, unknown>> | null, options: { dev: boolean }): Map<string, OAuthProvider> {
  const providers = new Map<string, OAuthProvider>();
  for (const [name, value] of Object.entries(raw ?? {})) {
    const key = `oauth.providers.${name}`;
    if (!new RegExp(CONNECTION_NAME_PATTERN).test(name)) throw new ConfigError(key, 'a provider name is letters, digits, _ and -, up to 40 (it names the connection by default)');
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ConfigError(key, 'must be an object');
    const entry = value as Record<string, unknown>;
    const unknown = Object.keys(entry).find((k) => !FIELDS.has(k));
    if (unknown !== undefined) throw new ConfigError(`${key}.${unknown}`, `is not a provider setting (they are ${[...FIELDS].join(', ')})`);
    const presetName = entry.preset === undefined ? name : str(entry, 'preset', key);
    const preset = OAUTH_PRESETS[presetName];
    if (entry.preset !== undefined && preset === undefined) throw new ConfigError(`${key}.preset`, `is not a preset (they are ${Object.keys(OAUTH_PRESETS).join(', ')})`);
    const authorizeUrl = endpoint(entry, 'authorize_url', key, preset?.authorizeUrl, options.dev);
    const tokenUrl = endpoint(entry, 'token_url', key, preset?.tokenUrl, options.dev);
    const envVarName = entry.env_var_name === undefined ? (preset?.envVarName ?? `${name.toUpperCase().replace(/-/g, '_')}_ACCESS_TOKEN`) : str(entry, 'env_var_name', key);
    if (!new RegExp(ENV_VAR_NAME_PATTERN).test(envVarName)) throw new ConfigError(`${key}.env_var_name`, 'must be a valid environment variable name');
    const tokenAuth = entry.token_auth === undefined ? (preset?.tokenAuth ?? 'client_secret_post') : str(entry, 'token_auth', key);
    if (tokenAuth !== 'client_secret_post' && tokenAuth !== 'client_secret_basic') throw new ConfigError(`${key}.token_auth`, 'must be client_secret_post or client_secret_basic');
    providers.set(name, {
      name,
      authorizeUrl,
      tokenUrl,
      issuer: entry.issuer === undefined ? new URL(authorizeUrl).origin : endpoint(entry, 'issuer', key, undefined, options.dev),
      clientId: str(entry, 'client_id', key),
      clientSecret: entry.client_secret === undefined ? null : str(entry, 'client_secret', key),
      tokenAuth,
      scopes: entry.scopes === undefined ? (preset?.scopes ?? []) : scopes(entry.scopes, `${key}.scopes`),
      authorizeParams: { ...preset?.authorizeParams, ...(entry.authorize_params === undefined ? {} : stringMap(entry.authorize_params, `${key}.authorize_params`)) },
      envVarName,
    });
  }
  return providers;
}

function str(entry: Record<string, unknown>, field: string, key: string): string {
  const value = entry[field];
  if (typeof value !== 'string' || value === '') throw new ConfigError(`${key}.${field}`, value === undefined ? 'is required' : 'must be a non-empty string');
  return value;
}

function endpoint(entry: Record<string, unknown>, field: string, key: string, fallback: string | undefined, dev: boolean): string {
  const value = entry[field] === undefined && fallback !== undefined ? fallback : str(entry, field, key);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(`${key}.${field}`, 'must be an absolute URL');
  }
  if (url.protocol !== 'https:' && !(dev && url.protocol === 'http:')) throw new ConfigError(`${key}.${field}`, 'must be https (http only in dev mode)');
  return value;
}

function scopes(value: unknown, key: string): string[] {
  const list = typeof value === 'string' ? value.split(/[\s,]+/).filter((s) => s !== '') : value;
  if (!Array.isArray(list) || list.some((s) => typeof s !== 'string' || s === '' || /\s/.test(s))) throw new ConfigError(key, 'must be a list of scope names');
  return list as string[];
}

function stringMap(value: unknown, key: string): Record<string, string> {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || Object.values(value).some((v) => typeof v !== 'string')) {
    throw new ConfigError(key, 'must be an object of strings');
  }
  return value as Record<string, string>;
}
