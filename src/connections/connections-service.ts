import { isoTime } from '../clock.js';
import { ConflictError, InvalidRequestError, NotFoundError } from '../errors.js';
import { pageQuery, toListResponse, type ListQuery, type ListResponse } from '../pagination.js';
import type { ProjectsService } from '../projects/projects-service.js';
import type { Resources } from '../resources.js';
import type { AuthStatus, ConnectionPatch, ConnectionRow, NewConnectionRow } from '../store/connections-table.js';
import { fromJson, toJson } from '../store/json-columns.js';
import type { ConnectionAuth } from './connection-auth.js';
import { checkEnvVarName, checkHeaders, checkMcpUrl, refuseMembersOfOtherTypes } from './connection-input.js';
import { toConnection, type Connection } from './connection-record.js';
import type { ConnectionTools } from './connection-tools.js';
import type { CreateConnectionBody, UpdateConnectionBody } from './connection-schemas.js';
import type { ConnectionSecrets } from './connection-secrets.js';
import { mcpEndpointOf } from './mcp-client/mcp-endpoint.js';
import type { McpCheckResult } from './mcp-client/mcp-check.js';
import { uniqueToolName } from './mcp-client/mcp-tool-name.js';
import type { McpEndpoint } from './mcp-client/mcp-session.js';
import { SecretMask } from './secret-mask.js';
import { parseTotpSeed } from './totp/totp-seed.js';
import { parseProxyUrl, type ProxyEndpoint } from './proxy/proxy-url.js';

export interface ConnectionsServiceDeps {
  projects: ProjectsService;
  secrets: ConnectionSecrets;
  auth: ConnectionAuth;
  /** The webhook target guard, applied to MCP URLs: refuses private addresses unless in dev mode. */
  checkTarget: (url: string, param: string) => Promise<void>;
  /** The same guard on a proxy's host (any of http, https and socks5 reach it): refuses private addresses unless in dev mode. */
  checkProxyHost: (host: string, param: string) => Promise<unknown>;
  /** Connects to an MCP server the way a run would. */
  checkMcp: (endpoint: McpEndpoint) => Promise<McpCheckResult>;
  /** Makes an oauth connection's token fresh (refreshing it when it is about to expire) and says how that went. */
  checkOAuth: (row: ConnectionRow) => Promise<void>;
  /** The row once its connect links are taken into account: expired when every link of a pending one lapsed (HostedConnect). */
  lapsed: (row: ConnectionRow) => ConnectionRow;
}

/** The connections API: records without secrets, write-only secrets, and the checks behind `auth_status`. */
export class ConnectionsService {
  constructor(
    private readonly r: Pick<Resources, 'store' | 'clock' | 'ids'>,
    private readonly deps: ConnectionsServiceDeps,
  ) {}

  list(orgId: string, q: ListQuery): ListResponse<Connection> {
    return toListResponse(this.r.store.connections.list(orgId, pageQuery(q)), (row) => toConnection(this.deps.lapsed(row)));
  }

  get(orgId: string, id: string): Connection {
    return toConnection(this.row(orgId, id));
  }

  row(orgId: string, id: string): ConnectionRow {
    const row = this.r.store.connections.get(orgId, id);
    if (row === undefined) throw new NotFoundError('connection', id);
    return this.deps.lapsed(row);
  }

  async create(orgId: string, body: CreateConnectionBody): Promise<Connection> {
    if (body.type === 'oauth') {
      throw new InvalidRequestError('invalid_body', 'oauth connections are made by the hosted connect flow: POST /v1/connections/links', { param: 'type' });
    }
    refuseMembersOfOtherTypes(body.type, body as unknown as Record<string, unknown>);
    const projectId = body.project_id ?? null;
    if (projectId !== null) this.deps.projects.row(orgId, projectId, 'project_id');
    if (body.type === 'mcp') {
      if (body.url === undefined) throw new InvalidRequestError('missing_parameter', 'mcp connections need a url', { param: 'url' });
      await this.checkUrl(body.url);
      checkHeaders(body.headers ?? {}, body.secret !== undefined);
    }
    if (body.type === 'totp' && body.secret !== undefined) parseTotpSeed(body.secret);
    if (body.env_var_name !== undefined) checkEnvVarName(body.env_var_name);
    const proxy = body.type === 'proxy' ? await this.checkProxy(body.url, body.secret ?? null) : null;
    this.checkUnique(orgId, projectId, body.name, body.env_var_name ?? null);

    const id = this.r.ids('conn');
    const secretValue = proxy !== null ? proxySecret(proxy) : (body.secret ?? null);
    const hasSecret = secretValue !== null;
    // Checked before it is stored, so that a new connection starts with what its check showed, announcing nothing.
    const status = body.type === 'token' || body.type === 'totp' ? tokenStatus(hasSecret) : body.type === 'proxy' ? proxyStatus(hasSecret) : (await this.checkEndpoint(body.name, mcpEndpointOf({ url: body.url!, transport: body.transport ?? 'http', headers: toJson(body.headers ?? {}) }, body.secret ?? null), body.secret ?? null)).status;
    const now = isoTime(this.r.clock.now());
    const row: NewConnectionRow = {
      id,
      org_id: orgId,
      project_id: projectId,
      name: body.name,
      type: body.type,
      is_enabled: body.is_enabled === false ? 0 : 1,
      secret_enc: secretValue === null ? null : this.deps.secrets.seal(id, secretValue),
      env_var_name: body.env_var_name ?? null,
      url: body.type === 'mcp' ? body.url! : proxy !== null ? proxy.url : null,
      transport: body.type === 'mcp' ? (body.transport ?? 'http') : null,
      headers: body.type === 'mcp' ? toJson(body.headers ?? {}) : null,
      provider: null,
      ...status,
      auth_checked_at: body.type === 'mcp' ? now : null,
      created_at: now,
      updated_at: now,
    };
    return toConnection(this.r.store.connections.insert(row));
  }

  async update(orgId: string, id: string, body: UpdateConnectionBody): Promise<Connection> {
    const row = this.row(orgId, id);
    refuseMembersOfOtherTypes(row.type, body as unknown as Record<string, unknown>);
    const name = body.name ?? row.name;
    const envVarName = body.env_var_name === undefined ? row.env_var_name : body.env_var_name;
    if (body.env_var_name !== undefined && body.env_var_name !== null) checkEnvVarName(body.env_var_name);
    if (body.name !== undefined || body.env_var_name !== undefined) this.checkUnique(orgId, row.project_id, name, envVarName, id);
    let hasSecret = body.secret === undefined ? row.secret_enc !== null : body.secret !== null;
    if (row.type === 'totp' && typeof body.secret === 'string') parseTotpSeed(body.secret);
    let proxy: ProxyEndpoint | null = null;
    if (row.type === 'proxy' && body.url !== undefined) {
      proxy = await this.checkProxy(body.url, body.secret ?? null);
      if (proxy.username !== null) hasSecret = true;
    } else if (row.type === 'proxy' && typeof body.secret === 'string') {
      splitProxySecret(body.secret);
    }
    if (row.type === 'mcp') {
      if (body.url !== undefined) await this.checkUrl(body.url);
      checkHeaders(body.headers === undefined ? (fromJson<Record<string, string>>(row.headers) ?? {}) : (body.headers ?? {}), hasSecret);
    }

    const patch: ConnectionPatch = { updated_at: isoTime(this.r.clock.now()) };
    if (body.name !== undefined) patch.name = body.name;
    if (body.is_enabled !== undefined) patch.is_enabled = body.is_enabled ? 1 : 0;
    if (body.env_var_name !== undefined) patch.env_var_name = body.env_var_name;
    if (body.url !== undefined) patch.url = proxy?.url ?? body.url;
    if (body.transport !== undefined) patch.transport = body.transport;
    if (body.headers !== undefined) patch.headers = toJson(body.headers ?? {});
    if (body.secret !== undefined) patch.secret_enc = body.secret === null ? null : this.deps.secrets.seal(id, body.secret);
    // Credentials in a new URL replace the stored ones; a URL without them keeps them, unless secret says otherwise.
    if (proxy !== null && proxy.username !== null) patch.secret_enc = this.deps.secrets.seal(id, proxySecret(proxy)!);
    const updated = this.r.store.connections.patch(orgId, id, patch);
    if (updated === undefined) throw new NotFoundError('connection', id);

    if ((row.type === 'token' || row.type === 'totp' || row.type === 'proxy') && (body.secret !== undefined || proxy !== null)) {
      const status = row.type === 'proxy' ? proxyStatus(hasSecret) : tokenStatus(hasSecret);
      return toConnection(this.deps.auth.record(updated, { status: status.auth_status, detail: status.auth_detail }) ?? updated);
    }
    const reachChanged = body.url !== undefined || body.transport !== undefined || body.headers !== undefined || body.secret !== undefined;
    if (row.type === 'mcp' && (reachChanged || (body.is_enabled === true && row.is_enabled === 0))) return toConnection(await this.checkRow(updated));
    return toConnection(updated);
  }

  delete(orgId: string, id: string): { id: string; object: 'connection'; deleted: true } {
    if (!this.r.store.connections.delete(orgId, id)) throw new NotFoundError('connection', id);
    return { id, object: 'connection', deleted: true };
  }

  /**
   * Checks the connection now (`errand connections check`): mcp connects, oauth refreshes its token, token and totp
   * look at their secret (a totp seed was checked when it was stored).
   */
  async check(orgId: string, id: string): Promise<Connection> {
    const row = this.row(orgId, id);
    switch (row.type) {
      case 'mcp':
        return toConnection(await this.checkRow(row));
      case 'oauth':
        await this.deps.checkOAuth(row);
        return this.get(orgId, id);
      case 'token':
      case 'totp': {
        const status = tokenStatus(row.secret_enc !== null);
        return toConnection(this.deps.auth.record(row, { status: status.auth_status, detail: status.auth_detail }) ?? row);
      }
      case 'proxy': {
        // The host is checked again (it may resolve elsewhere now); the proxy itself is reached only by runs.
        await this.checkProxy(row.url!, null);
        const status = proxyStatus(row.secret_enc !== null);
        return toConnection(this.deps.auth.record(row, { status: status.auth_status, detail: status.auth_detail }) ?? row);
      }
      default: {
        const unknown: never = row.type;
        throw new Error(`unknown connection type ${String(unknown)}`);
      }
    }
  }

  /** Connects to an mcp connection's server and records what that showed (also after a run's call was refused). */
  async checkRow(row: ConnectionRow): Promise<ConnectionRow> {
    return (await this.connectRow(row)).row;
  }

  /**
   * GET /connections/{id}/tools: connects to an mcp connection's server now, as a check does (recording what that
   * showed), and answers the tools runs would be offered, under the names runs see (issue 21, item 15).
   */
  async tools(orgId: string, id: string): Promise<ConnectionTools> {
    const row = this.row(orgId, id);
    if (row.type !== 'mcp') {
      throw new InvalidRequestError('not_an_mcp_connection', `${row.name} is a ${row.type} connection: only mcp connections offer runs tools`);
    }
    const { row: after, tools, mask } = await this.connectRow(row);
    const taken = new Set<string>();
    const data = tools.map((tool) => ({
      name: uniqueToolName(row.name, tool.name, taken),
      tool: tool.name,
      title: tool.title ?? null,
      description: tool.description ?? null,
      input_schema: tool.inputSchema as Record<string, unknown>,
    }));
    return { object: 'connection_tools', connection_id: row.id, auth_status: after.auth_status, auth_detail: after.auth_detail, data: mask.value(data) };
  }

  private async connectRow(row: ConnectionRow): Promise<{ row: ConnectionRow; tools: McpCheckResult['tools']; mask: SecretMask }> {
    const secret = this.deps.secrets.secretOf(row);
    const { status, tools, mask } = await this.checkEndpoint(row.name, mcpEndpointOf(row, secret), secret);
    const after = this.deps.auth.record(row, { status: status.auth_status, detail: status.auth_detail }) ?? row;
    return { row: after, tools, mask };
  }

  private async checkEndpoint(
    name: string,
    endpoint: McpEndpoint,
    secret: string | null,
  ): Promise<{ status: { auth_status: AuthStatus; auth_detail: string }; tools: McpCheckResult['tools']; mask: SecretMask }> {
    const result = await this.deps.checkMcp(endpoint);
    // A server's error text, and what it says of its tools, may quote what it was sent.
    const mask = new SecretMask(secret === null ? [] : [{ name, value: secret }]);
    return { status: { auth_status: result.status, auth_detail: mask.text(result.detail) }, tools: result.tools, mask };
  }

  private async checkUrl(url: string): Promise<void> {
    checkMcpUrl(url);
    try {
      await this.deps.checkTarget(url, 'url');
    } catch (err) {
      if (err instanceof InvalidRequestError) throw new InvalidRequestError('invalid_connection_url', err.message, { param: 'url' });
      throw err;
    }
  }

  /**
   * A proxy's URL (credentials in it, or in `secret` as user:password, never both) and its host, which must be public
   * unless dev mode or webhooks.allow_private_targets: a run's sandbox will connect there.
   */
  private async checkProxy(url: string | undefined, secret: string | null): Promise<ProxyEndpoint> {
    if (url === undefined) throw new InvalidRequestError('missing_parameter', 'proxy connections need a url', { param: 'url' });
    if (secret !== null) splitProxySecret(secret);
    const proxy = parseProxyUrl(url, 'url', secret);
    try {
      await this.deps.checkProxyHost(proxy.host, 'url');
    } catch (err) {
      if (err instanceof InvalidRequestError) throw new InvalidRequestError('invalid_proxy_url', err.message, { param: 'url' });
      throw err;
    }
    return proxy;
  }

  private checkUnique(orgId: string, projectId: string | null, name: string, envVarName: string | null, exceptId = ''): void {
    const scope = projectId === null ? 'the organisation' : `project ${projectId}`;
    if (this.r.store.connections.nameTaken(orgId, projectId, name, exceptId)) {
      throw new ConflictError('connection_name_taken', `${scope} already has a connection named ${name}`, { param: 'name' });
    }
    if (envVarName === null) return;
    const holder = this.r.store.connections.envVarTakenBy(orgId, projectId, envVarName, exceptId);
    if (holder !== null) throw new ConflictError('env_var_name_taken', `the connection ${holder} of ${scope} is already injected as ${envVarName}`, { param: 'env_var_name' });
  }
}

function proxyStatus(hasCredentials: boolean): { auth_status: AuthStatus; auth_detail: string } {
  return { auth_status: 'authenticated', auth_detail: hasCredentials ? 'credentials are set; runs that name it leave through it' : 'no credentials: runs that name it leave through it unauthenticated' };
}

/** What a proxy connection's secret holds: `user:password`, or null without credentials. */
function proxySecret(proxy: ProxyEndpoint): string | null {
  return proxy.username === null ? null : `${proxy.username}:${proxy.password ?? ''}`;
}

/** A proxy's secret is `user:password`: a user name is required, and cannot hold a colon. */
function splitProxySecret(secret: string): void {
  if (!secret.includes(':') || secret.startsWith(':')) {
    throw new InvalidRequestError('invalid_body', "a proxy connection's secret is its credentials as user:password", { param: 'secret' });
  }
}

function tokenStatus(hasSecret: boolean): { auth_status: AuthStatus; auth_detail: string } {
  return hasSecret ? { auth_status: 'authenticated', auth_detail: 'a secret is set' } : { auth_status: 'pending', auth_detail: 'no secret is set yet' };
}
