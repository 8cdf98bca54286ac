import type { RunRow } from '../store/runs-table.js';
import type { ConnectionRow } from '../store/connections-table.js';
import type { Store } from '../store/store.js';
import { fromJson } from '../store/json-columns.js';
import type { ConnectionSecrets } from './connection-secrets.js';
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
}

export type PreparedRun = { kind: 'ready'; credentials: RunCredentials } | { kind: 'refused'; detail: string };

/** Makes an oauth connection's access token fresh; answers the row after, whose status says whether that worked. */
export type FreshTokens = (row: ConnectionRow) => Promise<ConnectionRow>;

export interface RunConnectionsDeps {
  store: Store;
  secrets: ConnectionSecrets;
  freshTokens: FreshTokens;
}

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
    return { kind: 'ready', credentials: { env, secrets } };
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
    default: {
      const unknown: never = row.type;
      throw new Error(`unknown connection type ${String(unknown)}`);
    }
  }
}
