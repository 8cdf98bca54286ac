import { InvalidRequestError } from '../errors.js';
import type { ConnectionType } from '../store/connections-table.js';

/** `${SECRET}` in a header value stands for the connection's secret. */
export const SECRET_PLACEHOLDER = '${SECRET}';

/**
 * Variables the sandbox sets itself or that would change how every program in it runs; a connection injected
 * under one of these names would break the sandbox or take it over.
 */
const RESERVED_ENV = new Set(['PATH', 'HOME', 'TMPDIR', 'LANG', 'PWD', 'SHELL', 'USER', 'NODE_OPTIONS', 'PYTHONPATH', 'PYTHONHOME', 'BASH_ENV', 'ENV']);
const RESERVED_ENV_PREFIXES = ['ERRAND_', 'LD_', 'DYLD_'];

/** Headers whose value is a credential: it must come from the secret, so that it is stored sealed. */
const CREDENTIAL_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie']);

/** What a connection of each type may carry; anything else in a body is a mistake worth a 400 that names it. */
const MEMBERS: Record<ConnectionType, ReadonlySet<string>> = {
  token: new Set(['secret', 'env_var_name']),
  mcp: new Set(['secret', 'url', 'transport', 'headers']),
  oauth: new Set(['env_var_name']),
  // Never in the environment: code that could read the seed could print it, or any code it makes, to the model.
  totp: new Set(['secret']),
  proxy: new Set(['secret', 'url']),
};

export function refuseMembersOfOtherTypes(type: ConnectionType, body: Record<string, unknown>): void {
  for (const member of ['secret', 'env_var_name', 'url', 'transport', 'headers']) {
    if (body[member] !== undefined && !MEMBERS[type].has(member)) {
      throw new InvalidRequestError('invalid_body', `${member} does not apply to ${type} connections`, { param: member });
    }
  }
}

export function checkEnvVarName(name: string, param = 'env_var_name'): void {
  if (RESERVED_ENV.has(name.toUpperCase()) || RESERVED_ENV_PREFIXES.some((p) => name.toUpperCase().startsWith(p))) {
    throw new InvalidRequestError('invalid_body', `env_var_name ${name} is reserved by the sandbox; choose another name`, { param });
  }
}

/** Checks an MCP connection's URL's form (the target guard checks where it leads). */
export function checkMcpUrl(url: string, param = 'url'): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new InvalidRequestError('invalid_body', 'url must be an absolute http or https URL', { param });
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new InvalidRequestError('invalid_body', `url must be http or https, not ${parsed.protocol}`, { param });
  }
  if (parsed.username !== '' || parsed.password !== '') {
    throw new InvalidRequestError('invalid_body', 'url must not carry credentials: put them in secret and use ${SECRET} in headers', { param });
  }
}

/** Checks MCP headers against the secret they may use. */
export function checkHeaders(headers: Record<string, string>, hasSecret: boolean): void {
  for (const [name, value] of Object.entries(headers)) {
    const param = `headers.${name}`;
    if (/[\r\n\0]/.test(value)) throw new InvalidRequestError('invalid_body', `header ${name} must not contain line breaks`, { param });
    const usesSecret = value.includes(SECRET_PLACEHOLDER);
    if (usesSecret && !hasSecret) {
      throw new InvalidRequestError('invalid_body', `header ${name} uses \${SECRET}, but the connection has no secret`, { param });
    }
    if (CREDENTIAL_HEADERS.has(name.toLowerCase()) && !usesSecret) {
      throw new InvalidRequestError('invalid_body', `header ${name} carries a credential: put it in secret and write \${SECRET} here, so that it is stored encrypted`, { param });
    }
  }
}

/** The headers to send, with `${SECRET}` replaced by the secret. */
export function expandHeaders(headers: Record<string, string>, secret: string | null): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, secret === null ? v : v.split(SECRET_PLACEHOLDER).join(secret)]));
}
