import type { BrowserCookie, BrowserOrigin, BrowserState, LoginCheck, LoginRequest } from '../../../src/sandbox/protocol.js';
import { BadRequest } from './request-validation.js';

/** A saved login is sealed within the daemon's size limit (profiles.max_state_kb, at most 64 MiB) before it comes. */
export const LOGIN_BODY_LIMIT = 64 * 1024 * 1024;
const SAME_SITE = ['Strict', 'Lax', 'None'] as const;

/** POST /login. Errors name members, never a value: a state is a secret. */
export function parseLoginRequest(body: unknown): LoginRequest {
  const value = asObject(body, 'the body');
  const name = value.name;
  if (typeof name !== 'string' || !/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(name)) throw new BadRequest('name must be a profile name');
  return { name, state: value.state === null ? null : parseState(value.state) };
}

/** POST /login/check: a page, and a text or a role (with an optional name). */
export function parseLoginCheck(body: unknown): LoginCheck {
  const value = asObject(body, 'the body');
  const url = value.url;
  if (typeof url !== 'string' || !/^https?:\/\//.test(url)) throw new BadRequest('url must be an http or https URL');
  const text = optionalString(value, 'text');
  const role = optionalString(value, 'role');
  const name = optionalString(value, 'name');
  if ((text === undefined) === (role === undefined)) throw new BadRequest('a check has a text or a role, not both');
  if (name !== undefined && role === undefined) throw new BadRequest('name comes only with role');
  return { url, ...(text === undefined ? {} : { text }), ...(role === undefined ? {} : { role }), ...(name === undefined ? {} : { name }) };
}

function parseState(raw: unknown): BrowserState {
  const value = asObject(raw, 'state');
  if (!Array.isArray(value.cookies) || !Array.isArray(value.origins)) throw new BadRequest('state must have cookies and origins arrays');
  return { cookies: value.cookies.map(parseCookie), origins: value.origins.map(parseOrigin) };
}

function parseCookie(raw: unknown, i: number): BrowserCookie {
  const value = asObject(raw, `state.cookies[${i}]`);
  const strings = ['name', 'value', 'domain', 'path'] as const;
  for (const key of strings) if (typeof value[key] !== 'string') throw new BadRequest(`state.cookies[${i}].${key} must be a string`);
  if (typeof value.expires !== 'number') throw new BadRequest(`state.cookies[${i}].expires must be a number`);
  if (typeof value.httpOnly !== 'boolean' || typeof value.secure !== 'boolean') throw new BadRequest(`state.cookies[${i}].httpOnly and secure must be booleans`);
  if (!SAME_SITE.includes(value.sameSite as BrowserCookie['sameSite'])) throw new BadRequest(`state.cookies[${i}].sameSite must be one of ${SAME_SITE.join(', ')}`);
  return {
    name: value.name as string,
    value: value.value as string,
    domain: value.domain as string,
    path: value.path as string,
    expires: value.expires,
    httpOnly: value.httpOnly,
    secure: value.secure,
    sameSite: value.sameSite as BrowserCookie['sameSite'],
  };
}

function parseOrigin(raw: unknown, i: number): BrowserOrigin {
  const value = asObject(raw, `state.origins[${i}]`);
  if (typeof value.origin !== 'string') throw new BadRequest(`state.origins[${i}].origin must be a string`);
  if (!Array.isArray(value.localStorage)) throw new BadRequest(`state.origins[${i}].localStorage must be an array`);
  const localStorage = value.localStorage.map((item: unknown, j: number) => {
    const entry = asObject(item, `state.origins[${i}].localStorage[${j}]`);
    if (typeof entry.name !== 'string' || typeof entry.value !== 'string') throw new BadRequest(`state.origins[${i}].localStorage[${j}] must have a name and a value`);
    return { name: entry.name, value: entry.value };
  });
  if (value.indexedDB !== undefined && !Array.isArray(value.indexedDB)) throw new BadRequest(`state.origins[${i}].indexedDB must be an array`);
  return { origin: value.origin, localStorage, ...(value.indexedDB === undefined ? {} : { indexedDB: value.indexedDB as unknown[] }) };
}

function asObject(raw: unknown, what: string): Record<string, unknown> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new BadRequest(`${what} must be a JSON object`);
  return raw as Record<string, unknown>;
}

function optionalString(value: Record<string, unknown>, key: string): string | undefined {
  const field = value[key];
  if (field === undefined) return undefined;
  if (typeof field !== 'string' || field === '' || field.length > 500) throw new BadRequest(`${key} must be a string of 1 to 500 characters`);
  return field;
}
