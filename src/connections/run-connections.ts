import type { RunRow } from '../store/runs-table.js';
import type { ConnectionRow } from '../store/connections-table.js';
import type { Store } from '../store/store.js';
import { fromJson } from '../store/json-columns.js';
import type { ConnectionSecrets } from './connection-secrets.js';
import { parseProxyUrl, splitSecret, type ProxyEndpoint } from './proxy/proxy-url.js';
import type { NamedSecret } from './secret-mask.js';
import { parseTotpSeed } from './totp/totp-seed.js';

/** The connections of one run: the enabled ones in its scope, and which of them the run (or its job) named. */
export interface ApplicableConnections {
  rows: ConnectionRow[];
  named: ReadonlySet<string>;
  /** Why a named connection cannot be used (missing, disabled, not authenticated), or null when all can. */
  refusal: string | null;
}

/** What the sandbox and the agent get from a run's connections. */
export interface RunCredentials {
  /** Injected into the sandbox's environment: token connections, and oauth access tokens (never a totp seed). */
  env: Record<string, string>;
  /** Every secret the run's connections hold, by connection name: masked in all the model reads, typeable by reference. */
  secrets: NamedSecret[];
  /** The proxy the run's sandbox leaves through (its own, its job's, or the operator's default); null: none. */
  proxy: RunProxy | null;
}

/** A run's egress proxy (issue 23, item 4), with the addresses its host had when the run started. */
export interface RunProxy {
  endpoint: ProxyEndpoint;
  /** How a failure_detail names it: its URL without credentials, and whose it is. */
  label: string;
  addresses: string[];
}

export type PreparedRun = { kind: 'ready'; credentials: RunCredentials } | { kind: 'refused'; detail: string };

/** Makes an oauth connection's access token fresh; answers the row after, whose status says whether that worked. */
export type FreshTokens = (row: ConnectionRow) => Promise<ConnectionRow>;

export interface RunConnectionsDeps {
  store: Store;
  secrets: ConnectionSecrets;
  freshTokens: FreshTokens;
  /**
   * The addresses a proxy's host resolves to, refused (InvalidRequestError) when one is forbidden, unless `trusted`
   * (the operator's own default): the target guard's.
   */
  proxyAddresses: (host: string, param: string, trusted: boolean) => Promise<string[]>;
  /** `sandbox.egress_proxy`, parsed: the proxy of runs that name none. */
  defaultProxy: ProxyEndpoint | null;
}

/** The secret's name in masks, for the operator's default proxy, which no connection holds. */
const DEFAULT_PROXY_NAME = 'sandbox.egress_proxy';

/**
 * Decides which connections a run uses and with what: every enabled connection in the run's scope (the
 * organisation's, and its project's, which hide organisation-wide ones of the same name) applies; one the run
 * names must exist, be enabled and be authenticated, or the run fails with auth_required before any model call.
 * MCP connections are judged when their server is connected (`McpToolSource`), before the sandbox starts.
 */
export class RunConnections {
  constructor(private readonly o: RunConnectionsDeps) {}

  applicable(run: RunRow): ApplicableConnections {
    const byName = this.inScope(run.org_id, run.project_id);
    const named = new Set(fromJson<string[]>(run.connections) ?? []);
    const problems = this.problemsOf(byName, named);
    return {
      rows: [...byName.values()].filter((row) => row.is_enabled === 1),
      named,
      refusal: problems.length === 0 ? null : `the run needs ${problems.join('; ')}`,
    };
  }

  /**
   * Why each connection a run in this scope names cannot be used, as things stand: `the connection 'x', which does
   * not exist ...`. Asked when a run is admitted, to warn the caller of a run that will fail (issue 21, item 14).
   */
  namedProblems(orgId: string, projectId: string, names: readonly string[]): string[] {
    // Most runs name none: then creating one costs no query here.
    if (names.length === 0) return [];
    return this.problemsOf(this.inScope(orgId, projectId), new Set(names));
  }

  /**
   * Why the proxy connection a run in this scope names cannot be used, or null when it can (or it names none): it
   * must exist, be enabled and be a proxy connection. Asked when a run is admitted, like `namedProblems`.
   */
  proxyProblem(orgId: string, projectId: string, name: string | null): string | null {
    if (name === null) return null;
    const row = this.inScope(orgId, projectId).get(name);
    if (row === undefined) return `the proxy connection '${name}', which does not exist in this organisation or the run's project`;
    if (row.type !== 'proxy') return `the proxy connection '${name}', which is a ${row.type} connection, not a proxy`;
    if (row.is_enabled !== 1) return `the proxy connection '${name}', which is disabled`;
    return null;
  }

  /** The connections in a run's scope by name: organisation-wide first, so that the project's one of the same name replaces it. */
  private inScope(orgId: string, projectId: string): Map<string, ConnectionRow> {
    const byName = new Map<string, ConnectionRow>();
    const rows = this.o.store.connections.inScope(orgId, projectId).sort((a, b) => Number(a.project_id !== null) - Number(b.project_id !== null));
    for (const row of rows) byName.set(row.name, row);
    return byName;
  }

  private problemsOf(byName: ReadonlyMap<string, ConnectionRow>, named: ReadonlySet<string>): string[] {
    const problems: string[] = [];
    for (const name of named) {
      const row = byName.get(name);
      const problem = row === undefined ? "does not exist in this organisation or the run's project" : unusable(row);
      if (problem !== null) problems.push(`the connection '${name}', which ${problem}`);
    }
    return problems;
  }

  /** The credentials of a run, refreshing oauth tokens that are about to expire; or why the run cannot start. */
  async prepare(run: RunRow): Promise<PreparedRun> {
    const { rows, named, refusal } = this.applicable(run);
    if (refusal !== null) return { kind: 'refused', detail: refusal };
    const env: Record<string, string> = {};
    const secrets: NamedSecret[] = [];
    const expired: string[] = [];
    for (const listed of rows) {
      // A proxy's credentials are the run's only when it leaves through it (proxyOf, below).
      if (listed.type === 'proxy') continue;
      let row = listed;
      if (row.type === 'oauth') {
        if (row.auth_status !== 'authenticated') continue;
        row = await this.o.freshTokens(row);
        if (row.auth_status !== 'authenticated') {
          if (named.has(row.name)) expired.push(`the connection '${row.name}', which ${unusable(row) ?? 'is not authenticated'}`);
          continue;
        }
      }
      if (row.type === 'totp') {
        // Never in the environment; the seed goes to the sandbox only with a type action that refers to it.
        const secret = this.o.secrets.secretOf(row);
        if (secret === null) continue;
        const { seed, forms } = parseTotpSeed(secret);
        for (const value of forms) secrets.push({ name: row.name, value, totp: seed });
        continue;
      }
      const values = this.o.secrets.valuesOf(row);
      for (const value of values) secrets.push({ name: row.name, value, typeable: row.type === 'token' });
      if (row.env_var_name !== null && values[0] !== undefined && row.type !== 'mcp') env[row.env_var_name] = values[0];
    }
    if (expired.length > 0) return { kind: 'refused', detail: `the run needs ${expired.join('; ')}` };
    const proxy = await this.proxyOf(run);
    if (proxy.kind === 'refused') return proxy;
    if (proxy.secret !== null) secrets.push(...proxy.secret);
    return { kind: 'ready', credentials: { env, secrets, proxy: proxy.proxy } };
  }

  /**
   * The run's proxy: the connection it (or its job) named, else the operator's default. Its host is resolved and
   * checked again now, since what it resolves to may have changed since the connection was made.
   */
  private async proxyOf(run: RunRow): Promise<{ kind: 'ready'; proxy: RunProxy | null; secret: NamedSecret[] | null } | { kind: 'refused'; detail: string }> {
    let endpoint: ProxyEndpoint;
    let label: string;
    let name: string;
    if (run.proxy !== null) {
      const problem = this.proxyProblem(run.org_id, run.project_id, run.proxy);
      if (problem !== null) return { kind: 'refused', detail: `the run needs ${problem}` };
      const row = this.inScope(run.org_id, run.project_id).get(run.proxy)!;
      const secret = this.o.secrets.secretOf(row);
      const credentials = secret === null ? null : splitSecret(secret);
      endpoint = { ...parseProxyUrl(row.url!, 'url'), username: credentials?.username ?? null, password: credentials?.password ?? null };
      label = `the proxy ${endpoint.url} (connection '${row.name}')`;
      name = row.name;
    } else if (this.o.defaultProxy !== null) {
      endpoint = this.o.defaultProxy;
      label = `the proxy ${endpoint.url} (sandbox.egress_proxy)`;
      name = DEFAULT_PROXY_NAME;
    } else {
      return { kind: 'ready', proxy: null, secret: null };
    }
    let addresses: string[];
    try {
      addresses = await this.o.proxyAddresses(endpoint.host, 'proxy', name === DEFAULT_PROXY_NAME);
    } catch (err) {
      return { kind: 'refused', detail: `the run cannot use ${label}: ${(err as Error).message}` };
    }
    const secret = [endpoint.password, endpoint.username === null ? null : `${endpoint.username}:${endpoint.password ?? ''}`]
      .filter((value): value is string => value !== null && value !== '')
      .map((value) => ({ name, value, typeable: false }));
    return { kind: 'ready', proxy: { endpoint, label, addresses }, secret };
  }
}

/** Why a connection the run named cannot be used, or null when it can (mcp: once its server answers). */
function unusable(row: ConnectionRow): string | null {
  if (row.is_enabled !== 1) return 'is disabled';
  switch (row.type) {
    case 'token':
    case 'totp':
      return row.secret_enc === null ? 'has no secret' : null;
    case 'mcp':
      return null;
    case 'oauth':
      return row.auth_status === 'authenticated' ? null : `is ${row.auth_status}${row.auth_detail === null ? '' : ` (${row.auth_detail})`}`;
    case 'proxy':
      return 'is a proxy connection: a run names it in proxy, not in connections';
    default: {
      const unknown: never = row.type;
      throw new Error(`unknown connection type ${String(unknown)}`);
    }
  }
}
