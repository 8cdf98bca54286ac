/**
 * The attacks of issue 21 (items 2 and 3), measured against a running daemon, so that a build can be compared with
 * another (the figures in the note are this script's):
 *   npm run build && npx tsx bench/tenant-abuse.ts [checkout=.]
 *
 * `checkout` is the directory of a built Errand whose `bin/errandd` is started (on a fresh data directory, with its
 * default configuration but for the per-key request rate, raised so that it does not hide the limits measured, and
 * no model key) and whose `bin/errand` makes the keys and the second organisation, so that a build of another commit
 * is measured as it ships. Every request goes to the daemon on loopback.
 *
 * - big registrations: 60 registrations, each with one member (logo_uri, client_uri, scope or contacts) of 950 KB:
 *   how many were accepted, and how much the database files grew.
 * - registrations: `POST /oauth/register` without credentials, 16 at a time, for 3 s: how many were accepted.
 * - authorize: 200 `GET /oauth/authorize` with a 15 KB `state` for a client registered first: how many consent pages,
 *   sign-ins stored, and growth; then 200 more with a 1000-character `state`.
 * - MCP sessions: one API key sends `initialize` until one is refused (at most 1100), then asks each session it got
 *   for its tools: how many sessions it still holds, and what another organisation's `initialize` answers.
 * - event streams: one API key opens `GET /v1/events` streams until one is refused (at most 1000): how many it
 *   holds, and what another organisation's stream answers then.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { firstKey } from './first-key.js';
import { startChild, stopChild } from './child-process.js';

const REDIRECT_URI = 'http://127.0.0.1:1/callback';
const MB = 1024 * 1024;

interface Daemon {
  url: string;
  home: string;
  checkout: string;
}

export interface TenantAbuseResult {
  registrationsIn3s: number;
  registrationStatuses: Record<number, number>;
  bigRegistrationsAccepted: number;
  bigRegistrationStatuses: Record<number, number>;
  bigRegistrationsGrowthMb: number;
  authorizePages: number;
  authorizeSignInsStored: number;
  authorizeStatuses: Record<number, number>;
  authorizeGrowthMb: number;
  shortStateAuthorizePages: number;
  shortStateSignInsStored: number;
  sessionsOpened: number;
  sessionsOneKeyHolds: number;
  sessionRefusal: string;
  otherOrgInitialize: number;
  streamsOneKeyHolds: number;
  streamRefusal: string;
  otherOrgStream: number;
}

/** Bytes of the database and its write-ahead log. */
function databaseBytes(home: string): number {
  return readdirSync(home)
    .filter((f) => f.startsWith('errand.db'))
    .reduce((sum, f) => sum + statSync(join(home, f)).size, 0);
}

function tally(statuses: number[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const s of statuses) counts[s] = (counts[s] ?? 0) + 1;
  return counts;
}

async function register(url: string, metadata: Record<string, unknown> = {}): Promise<{ status: number; body: any }> {
  const res = await fetch(`${url}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: 'bench', redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: 'none', ...metadata }),
  });
  const text = await res.text();
  return { status: res.status, body: text.startsWith('{') ? JSON.parse(text) : text };
}

async function registrations(d: Daemon): Promise<{ accepted: number; statuses: Record<number, number> }> {
  const statuses: number[] = [];
  const until = Date.now() + 3000;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (Date.now() < until) statuses.push((await register(d.url)).status);
    }),
  );
  return { accepted: statuses.filter((s) => s === 201).length, statuses: tally(statuses) };
}

async function bigRegistrations(d: Daemon): Promise<{ accepted: number; statuses: Record<number, number>; growthMb: number }> {
  const before = databaseBytes(d.home);
  const big = 'x'.repeat(950 * 1024);
  const members = [{ logo_uri: `https://example.com/${big}` }, { client_uri: `https://example.com/${big}` }, { scope: big }, { contacts: [big] }];
  const statuses: number[] = [];
  for (let i = 0; i < 60; i++) statuses.push((await register(d.url, members[i % members.length])).status);
  return { accepted: statuses.filter((s) => s === 201).length, statuses: tally(statuses), growthMb: (databaseBytes(d.home) - before) / MB };
}

/** Rows of a table of the daemon's database, read beside it (the same query for any schema version). */
function rows(d: Daemon, table: string): number {
  const db = new Database(join(d.home, 'errand.db'), { readonly: true });
  try {
    return db.prepare<[], number>(`SELECT COUNT(*) FROM ${table}`).pluck().get()!;
  } finally {
    db.close();
  }
}

async function authorize(d: Daemon, clientId: string, stateLength: number): Promise<{ pages: number; stored: number; statuses: Record<number, number>; growthMb: number }> {
  const before = databaseBytes(d.home);
  const storedBefore = rows(d, 'mcp_consents');
  let pages = 0;
  const statuses: number[] = [];
  for (let i = 0; i < 200; i++) {
    const u = new URL(`${d.url}/oauth/authorize`);
    const params = { response_type: 'code', client_id: clientId, redirect_uri: REDIRECT_URI, code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256', state: `${i}-`.padEnd(stateLength, 's') };
    for (const [k, v] of Object.entries(params)) u.searchParams.set(k, v);
    const res = await fetch(u, { redirect: 'manual' });
    const html = await res.text();
    statuses.push(res.status);
    if (res.status === 200 && html.includes('name="request"')) pages += 1;
  }
  return { pages, stored: rows(d, 'mcp_consents') - storedBefore, statuses: tally(statuses), growthMb: (databaseBytes(d.home) - before) / MB };
}

const INITIALIZE = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } } });

async function initialize(url: string, key: string): Promise<{ status: number; text: string; sessionId: string | null }> {
  const res = await fetch(`${url}/mcp`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: INITIALIZE,
  });
  return { status: res.status, text: await res.text(), sessionId: res.headers.get('mcp-session-id') };
}

async function sessions(d: Daemon, key: string, otherKey: string): Promise<{ opened: number; held: number; refusal: string; other: number }> {
  const ids: string[] = [];
  let refusal = 'none';
  for (let i = 0; i < 1100; i++) {
    const res = await initialize(d.url, key);
    if (res.status !== 200) {
      refusal = `${res.status} ${res.text.slice(0, 200)}`;
      break;
    }
    ids.push(res.sessionId!);
  }
  const other = (await initialize(d.url, otherKey)).status;
  let held = 0;
  for (const id of ids) {
    const res = await fetch(`${d.url}/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    });
    await res.text();
    if (res.status === 200) held += 1;
  }
  return { opened: ids.length, held, refusal, other };
}

async function openStream(url: string, key: string, streams: AbortController[]): Promise<{ status: number; text: string }> {
  const abort = new AbortController();
  const res = await fetch(`${url}/v1/events`, { headers: { authorization: `Bearer ${key}`, accept: 'text/event-stream' }, signal: abort.signal });
  if (res.status === 200) {
    streams.push(abort);
    // The body stays unread: the stream is held open, as an attacker would hold it.
    return { status: 200, text: '' };
  }
  return { status: res.status, text: await res.text() };
}

async function eventStreams(d: Daemon, key: string, otherKey: string): Promise<{ held: number; refusal: string; other: number }> {
  const streams: AbortController[] = [];
  let refusal = 'none';
  try {
    for (let i = 0; i < 1000; i++) {
      const res = await openStream(d.url, key, streams);
      if (res.status !== 200) {
        refusal = `${res.status} ${res.text.slice(0, 200)}`;
        break;
      }
    }
    const held = streams.length;
    const other = await openStream(d.url, otherKey, streams);
    return { held, refusal, other: other.status };
  } finally {
    for (const s of streams) s.abort();
  }
}

/** Runs the checkout's own CLI on the daemon's data directory; answers its JSON. */
function cli(d: Daemon, ...args: string[]): any {
  const out = spawnSync(process.execPath, [join(d.checkout, 'bin', 'errand'), ...args, '--home', d.home, '--json'], { encoding: 'utf8' });
  if (out.status !== 0) throw new Error(`errand ${args.join(' ')}: ${out.stderr}`);
  return JSON.parse(out.stdout);
}

export async function runTenantAbuseBench(checkout = '.'): Promise<TenantAbuseResult> {
  const root = resolve(checkout);
  const home = mkdtempSync(join(tmpdir(), 'errand-bench-abuse-'));
  const env = {
    ...process.env,
    ERRAND_HOME: home,
    ANTHROPIC_API_KEY: '',
    OPENAI_API_KEY: '',
    ERRAND_SANDBOX_DRIVER: 'local',
    ERRAND_SANDBOX_WARM_POOL_SIZE: '0',
    ERRAND_LOG_LEVEL: 'warn',
    ERRAND_LIMITS_REQUESTS_PER_MINUTE: '1000000',
  };
  const child = await startChild([join(root, 'bin', 'errandd'), '--port', '0', '--home', home, '--dev'], env, join(home, 'errandd.log'));
  try {
    // The first start's notice names the default organisation, which exists once it is printed.
    await firstKey(child.lines);
    const d: Daemon = { url: child.listening, home, checkout: root };
    // A fresh key of the first organisation for each attack, so that neither starts with the other's request rate
    // spent, and a key of a second organisation.
    const sessionKey = cli(d, 'keys', 'create', '--org', 'default').key as string;
    const streamKey = cli(d, 'keys', 'create', '--org', 'default').key as string;
    cli(d, 'orgs', 'create', 'other-tenant');
    const otherKey = cli(d, 'keys', 'create', '--org', 'other-tenant').key as string;
    // The authorize attack's client is registered first, and the big registrations come before the flood spends the
    // address's registrations, so that each bound is seen by itself.
    const client = await register(d.url);
    const big = await bigRegistrations(d);
    const reg = await registrations(d);
    const auth = await authorize(d, client.body.client_id as string, 15 * 1024);
    const short = await authorize(d, client.body.client_id as string, 1000);
    const mcp = await sessions(d, sessionKey, otherKey);
    const sse = await eventStreams(d, streamKey, otherKey);
    return {
      registrationsIn3s: reg.accepted,
      registrationStatuses: reg.statuses,
      bigRegistrationsAccepted: big.accepted,
      bigRegistrationStatuses: big.statuses,
      bigRegistrationsGrowthMb: Number(big.growthMb.toFixed(1)),
      authorizePages: auth.pages,
      authorizeSignInsStored: auth.stored,
      authorizeStatuses: auth.statuses,
      authorizeGrowthMb: Number(auth.growthMb.toFixed(1)),
      shortStateAuthorizePages: short.pages,
      shortStateSignInsStored: short.stored,
      sessionsOpened: mcp.opened,
      sessionsOneKeyHolds: mcp.held,
      sessionRefusal: mcp.refusal,
      otherOrgInitialize: mcp.other,
      streamsOneKeyHolds: sse.held,
      streamRefusal: sse.refusal,
      otherOrgStream: sse.other,
    };
  } finally {
    await stopChild(child);
    rmSync(home, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(JSON.stringify(await runTenantAbuseBench(process.argv[2]), null, 2));
}
