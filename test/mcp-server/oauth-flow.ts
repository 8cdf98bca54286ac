/**
 * The OAuth flow of the MCP front door driven over plain HTTP, step by step, so that each step can be tampered
 * with: registration, PKCE, the authorization request, the consent page's form, the token endpoint.
 */
import { createHash, randomBytes } from 'node:crypto';

export const REDIRECT_URI = 'http://127.0.0.1:1/callback';

export interface Registered {
  client_id: string;
  client_secret?: string;
  [member: string]: unknown;
}

export async function register(url: string, metadata: Record<string, unknown> = {}): Promise<{ status: number; body: any }> {
  const res = await fetch(`${url}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: 'Test client', redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'], ...metadata }),
  });
  return { status: res.status, body: await res.json() };
}

export async function registerClient(url: string, metadata: Record<string, unknown> = {}): Promise<Registered> {
  const res = await register(url, metadata);
  if (res.status !== 201) throw new Error(`registration answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body;
}

export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export function authorizeUrl(url: string, params: Record<string, string | undefined>): string {
  const u = new URL(`${url}/oauth/authorize`);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) u.searchParams.append(k, v);
  return u.href;
}

export function standardAuthorize(url: string, client: Registered, challenge: string, overrides: Record<string, string | undefined> = {}): string {
  return authorizeUrl(url, {
    response_type: 'code',
    client_id: client.client_id,
    redirect_uri: REDIRECT_URI,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: 'st-123',
    resource: `${url}/mcp`,
    ...overrides,
  });
}

export interface Page {
  status: number;
  headers: Headers;
  html: string;
  /** The sign-in handle in the consent form, when the page is the consent page. */
  request: string | null;
  userCode: string | null;
  location: string | null;
}

export async function openAuthorize(href: string): Promise<Page> {
  const res = await fetch(href, { redirect: 'manual' });
  return page(res);
}

export async function submitConsent(url: string, fields: Record<string, string>): Promise<Page> {
  const res = await fetch(`${url}/oauth/authorize`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
  return page(res);
}

async function page(res: Response): Promise<Page> {
  const html = await res.text();
  return {
    status: res.status,
    headers: res.headers,
    html,
    request: /name="request" value="([^"]+)"/.exec(html)?.[1] ?? null,
    userCode: /errand mcp approve ([A-Z]{4}-[A-Z]{4})/.exec(html)?.[1] ?? null,
    location: res.headers.get('location'),
  };
}

export async function tokenRequest(url: string, params: Record<string, string>, headers: Record<string, string> = {}): Promise<{ status: number; headers: Headers; body: any }> {
  const res = await fetch(`${url}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(params).toString(),
  });
  return { status: res.status, headers: res.headers, body: await res.json() };
}

export async function revokeRequest(url: string, params: Record<string, string>): Promise<number> {
  const res = await fetch(`${url}/oauth/revoke`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(params).toString() });
  await res.text();
  return res.status;
}

/** Consent with an API key; answers the authorization code from the redirect. */
export async function consentWithKey(url: string, href: string, apiKey: string): Promise<{ code: string; redirect: URL }> {
  const consent = await openAuthorize(href);
  if (consent.request === null) throw new Error(`no consent page (${consent.status}): ${consent.html.slice(0, 500)} ${consent.location}`);
  const answer = await submitConsent(url, { request: consent.request, action: 'approve', api_key: apiKey });
  if (answer.status !== 303 || answer.location === null) throw new Error(`consent answered ${answer.status}: ${answer.html.slice(0, 500)}`);
  const redirect = new URL(answer.location);
  const code = redirect.searchParams.get('code');
  if (code === null) throw new Error(`no code in ${answer.location}`);
  return { code, redirect };
}

/** The whole flow for a new public client signed in with `apiKey`: its tokens. */
export async function signIn(url: string, apiKey: string): Promise<{ client: Registered; access_token: string; refresh_token: string; expires_in: number }> {
  const client = await registerClient(url);
  const { verifier, challenge } = pkce();
  const { code } = await consentWithKey(url, standardAuthorize(url, client, challenge), apiKey);
  const tokens = await tokenRequest(url, { grant_type: 'authorization_code', client_id: client.client_id, code, redirect_uri: REDIRECT_URI, code_verifier: verifier, resource: `${url}/mcp` });
  if (tokens.status !== 200) throw new Error(`token endpoint answered ${tokens.status}: ${JSON.stringify(tokens.body)}`);
  return { client, ...tokens.body };
}
