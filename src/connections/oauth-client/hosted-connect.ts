import { createHash } from 'node:crypto';
import type { LinkSigner, SignedQuery } from '../../artifacts/link-signer.js';
import { LinkExpiredError, LinkSignatureError } from '../../artifacts/link-errors.js';
import { isoTime } from '../../clock.js';
import { ConflictError, InvalidRequestError, NotFoundError } from '../../errors.js';
import type { ProjectsService } from '../../projects/projects-service.js';
import type { Resources } from '../../resources.js';
import type { SecretBox } from '../../secrets/secret-box.js';
import type { ConnectionRow } from '../../store/connections-table.js';
import type { ConnectionLinkRow } from '../../store/connections-store.js';
import type { ConnectionAuth } from '../connection-auth.js';
import { checkEnvVarName } from '../connection-input.js';
import type { CreateLinkBody } from '../connection-schemas.js';
import type { ConnectionSecrets } from '../connection-secrets.js';
import type { ConnectPage, ConnectPages } from './connect-pages.js';
import { linkLifecycle } from './link-lifecycle.js';
import { OAuthClient, OAuthClientError, TOKEN_REQUEST_TIMEOUT_MS, type TokenSet } from './oauth-client.js';

/** The spec's "short-lived": a link is opened within 15 minutes, and the flow it starts finishes within 15 more. */
export const CONNECT_LINK_VALIDITY_S = 15 * 60;
/**
 * How long after the provider's answer came back the daemon may still be finishing a flow (one token request and
 * a write); a flow still without an outcome after that was interrupted (the daemon stopped, or the write failed).
 */
const FINISHING_MS = 2 * TOKEN_REQUEST_TIMEOUT_MS;

export interface ConnectionLink {
  object: 'connection_link';
  id: string;
  connection_id: string;
  url: string;
  expires_at: string;
}

/**
 * Where a link's flow stands: `pending` (not opened yet), `opened` (someone is signing in at the provider),
 * `authenticated`, `failed` (`detail` says why; a connection that was authenticated before keeps its tokens), or
 * `expired` (not opened, or not finished, in time).
 */
export type ConnectionLinkState = 'pending' | 'opened' | 'authenticated' | 'failed' | 'expired';

export interface ConnectionLinkStatus {
  object: 'connection_link';
  id: string;
  connection_id: string;
  status: ConnectionLinkState;
  detail: string | null;
  /** Until when the link can be opened, or, once opened, the flow finished. */
  expires_at: string;
}

export interface HostedConnectDeps {
  projects: ProjectsService;
  secrets: ConnectionSecrets;
  /** Seals the PKCE verifier while the flow is under way. */
  box: SecretBox;
  auth: ConnectionAuth;
  clients: ReadonlyMap<string, OAuthClient>;
  signer: LinkSigner;
  pages: ConnectPages;
  publicUrl: () => string;
}

/** Where the browser goes once a flow ends: the caller's page, or one of ours. */
export type ConnectOutcome = { kind: 'page'; page: ConnectPage } | { kind: 'redirect'; location: string };

/**
 * Hosted connect (POST /v1/connections/links): an oauth connection and a single-use signed link to the daemon's
 * pages, which run the authorization-code flow with PKCE (S256) and `state` against a configured provider, store
 * the tokens sealed, mark the connection authenticated (announcing connection.authenticated), and send the browser
 * back to the caller's `redirect_url` (with `connection_id` and `status`), or show a plain page.
 */
export class HostedConnect {
  constructor(
    private readonly r: Pick<Resources, 'store' | 'clock' | 'ids'>,
    private readonly deps: HostedConnectDeps,
  ) {}

  get enabled(): boolean {
    return this.deps.clients.size > 0;
  }

  createLink(orgId: string, body: CreateLinkBody): ConnectionLink {
    if (!this.enabled) {
      throw new InvalidRequestError('hosted_connect_disabled', 'Hosted connect is disabled: the operator has configured no OAuth provider (oauth.providers)');
    }
    const client = this.deps.clients.get(body.provider);
    if (client === undefined) {
      throw new InvalidRequestError('unknown_provider', `No OAuth provider named ${body.provider}; the configured ones are ${[...this.deps.clients.keys()].join(', ')}`, { param: 'provider' });
    }
    const projectId = body.project_id ?? null;
    if (projectId !== null) this.deps.projects.row(orgId, projectId, 'project_id');
    if (body.env_var_name !== undefined) checkEnvVarName(body.env_var_name);
    if (body.redirect_url !== undefined) checkRedirectUrl(body.redirect_url);
    const name = body.name ?? body.provider;
    const envVarName = body.env_var_name ?? client.provider.envVarName;
    const connection = this.connectionFor(orgId, projectId, name, body.provider, envVarName);

    const now = this.r.clock.now();
    const id = this.r.ids('clk');
    const expiresAt = now + CONNECT_LINK_VALIDITY_S * 1000;
    this.r.store.connections.insertLink({ id, org_id: orgId, connection_id: connection.id, redirect_url: body.redirect_url ?? null, expires_at: expiresAt, created_at: isoTime(now) });
    const q = this.deps.signer.queryFor(id, now);
    return { object: 'connection_link', id, connection_id: connection.id, url: `${this.deps.publicUrl()}/v1/connect/${id}?expires=${q.expires}&sig=${q.sig}`, expires_at: isoTime(q.expires * 1000) };
  }

  /** Where the flow of the organisation's link `id` stands (GET /v1/connections/links/{id}). */
  linkStatus(orgId: string, id: string): ConnectionLinkStatus {
    const link = this.r.store.connections.orgLink(orgId, id);
    if (link === undefined) throw new NotFoundError('connection link', id);
    const now = this.r.clock.now();
    // An unopened link ends with its signature, which counts whole seconds (what POST answered as expires_at).
    const until = link.opened_at === null ? Math.floor(link.expires_at / 1000) * 1000 : Date.parse(link.opened_at) + CONNECT_LINK_VALIDITY_S * 1000;
    const answer = (status: ConnectionLinkState, detail: string | null): ConnectionLinkStatus => ({
      object: 'connection_link',
      id: link.id,
      connection_id: link.connection_id,
      status,
      detail,
      expires_at: isoTime(until),
    });
    switch (link.status) {
      case 'authenticated':
      case 'failed':
        return answer(link.status, link.outcome_detail);
      case 'answered':
        // The daemon is finishing the flow, or stopped before it could.
        if (now < Date.parse(link.finished_at!) + FINISHING_MS) return answer('opened', null);
        return answer('failed', 'the sign-in was interrupted before it finished; make a new link');
      case 'pending':
      case 'opened':
        return answer(now >= until ? 'expired' : link.status, null);
      default: {
        const never: never = link.status;
        throw new Error(`unknown connect link status ${String(never)}`);
      }
    }
  }

  /**
   * The connection as it stands once its links are taken into account: a pending oauth connection whose every
   * connect link has lapsed (not opened in time, or opened and not finished in time) is expired, since only a new
   * link can connect it (issue 21, item 15: it stayed pending forever). Read wherever connections are answered.
   */
  lapsed(row: ConnectionRow): ConnectionRow {
    if (row.type !== 'oauth' || row.auth_status !== 'pending') return row;
    const now = this.r.clock.now();
    if (this.r.store.connections.hasLiveLink(row.id, now, isoTime(now - CONNECT_LINK_VALIDITY_S * 1000))) return row;
    return this.deps.auth.record(row, { status: 'expired', detail: 'its connect link expired before anyone connected it; a new link connects it (POST /v1/connections/links)' }) ?? row;
  }

  /** The page a link opens: what will happen, and a button that starts the flow. Opening it uses nothing up. */
  startPage(linkId: string, query: Partial<SignedQuery>): ConnectPage {
    const found = this.usableLink(linkId, query);
    if ('status' in found) return found;
    const { client, connection } = found;
    return this.deps.pages.start({
      provider: client.provider.name,
      connection: connection.name,
      action: `/v1/connect/${linkId}/start?expires=${query.expires}&sig=${encodeURIComponent(query.sig ?? '')}`,
      expires: isoTime((query.expires ?? 0) * 1000),
    });
  }

  /** The button: uses the link up, remembers the flow's state and verifier, and sends the browser to the provider. */
  async start(linkId: string, query: Partial<SignedQuery>): Promise<ConnectOutcome> {
    const found = this.usableLink(linkId, query);
    if ('status' in found) return { kind: 'page', page: found };
    const state = OAuthClient.newState();
    const verifier = OAuthClient.newVerifier();
    const now = this.r.clock.now();
    const flow = { stateHash: hashState(state), verifierEnc: this.deps.box.seal(verifier, linkId), openedAt: isoTime(now) };
    if (!this.r.store.connections.openLink(linkId, linkLifecycle.move('pending', 'opened'), flow, now)) {
      return { kind: 'page', page: this.usedPage() };
    }
    const url = await found.client.authorizationUrl({ redirectUri: this.callbackUrl(), state, verifier });
    return { kind: 'redirect', location: url.href };
  }

  /** The provider's redirect back: exchanges the code, stores the tokens, and ends the flow. */
  async callback(url: URL): Promise<ConnectOutcome> {
    const state = url.searchParams.get('state');
    const link = state === null ? undefined : this.r.store.connections.linkByState(hashState(state));
    if (link === undefined || link.opened_at === null || link.verifier_enc === null) return { kind: 'page', page: this.deps.pages.problem(400, 'This sign-in is not known', 'The answer from the provider does not belong to a connect flow that is under way here.') };
    const connection = this.r.store.connections.get(link.org_id, link.connection_id);
    if (connection === undefined) return { kind: 'page', page: this.deps.pages.problem(410, 'The connection is gone', 'It was deleted while you were signing in.') };
    const verifier = this.deps.box.open(link.verifier_enc, link.id);
    // Used up before the code is exchanged: a reload of this page, or a replayed redirect, is refused.
    const finished = this.r.store.transaction((uow) => this.r.store.connections.finishLink(uow, link.id, linkLifecycle.move('opened', 'answered'), isoTime(this.r.clock.now())));
    if (!finished) return { kind: 'page', page: this.usedPage() };
    if (Date.parse(link.opened_at) + CONNECT_LINK_VALIDITY_S * 1000 <= this.r.clock.now()) {
      return this.failed(link, connection, 'the sign-in took longer than 15 minutes');
    }
    const client = connection.provider === null ? undefined : this.deps.clients.get(connection.provider);
    if (client === undefined) return this.failed(link, connection, `the provider ${connection.provider ?? ''} is no longer configured`);
    let tokens: TokenSet;
    try {
      tokens = await client.exchangeCode(url, { state: state!, redirectUri: this.callbackUrl(), verifier });
    } catch (err) {
      if (!(err instanceof OAuthClientError)) throw err;
      return this.failed(link, connection, err.message);
    }
    const secretEnc = this.deps.secrets.sealTokens(connection.id, { access_token: tokens.accessToken, refresh_token: tokens.refreshToken });
    // The connection and its link's outcome change together: a link never says authenticated for a connection that
    // is not, nor the reverse.
    this.r.store.transaction((uow) => {
      this.deps.auth.recordIn(uow, connection, {
        status: 'authenticated',
        detail: 'connected through hosted connect',
        also: { secret_enc: secretEnc, token_expires_at: tokens.expiresAt },
        announce: true,
      });
      this.r.store.connections.endLink(uow, link.id, linkLifecycle.move('answered', 'authenticated'), null);
    });
    if (link.redirect_url !== null) return { kind: 'redirect', location: backTo(link.redirect_url, connection.id, 'authenticated', null) };
    return { kind: 'page', page: this.deps.pages.done({ provider: client.provider.name, connection: connection.name }) };
  }

  private failed(link: ConnectionLinkRow, connection: ConnectionRow, reason: string): ConnectOutcome {
    this.r.store.transaction((uow) => {
      // A connection that already worked keeps its tokens when connecting again fails; the link says it failed.
      if (connection.auth_status !== 'authenticated') this.deps.auth.recordIn(uow, connection, { status: 'failed', detail: `hosted connect failed: ${reason}` });
      this.r.store.connections.endLink(uow, link.id, linkLifecycle.move('answered', 'failed'), reason);
    });
    if (link.redirect_url !== null) return { kind: 'redirect', location: backTo(link.redirect_url, connection.id, 'failed', reason) };
    return { kind: 'page', page: this.deps.pages.problem(400, 'The connection was not made', `Connecting failed: ${reason}.`) };
  }

  private usableLink(linkId: string, query: Partial<SignedQuery>): { link: ConnectionLinkRow; connection: ConnectionRow; client: OAuthClient } | ConnectPage {
    try {
      this.deps.signer.verify(linkId, query, this.r.clock.now());
    } catch (err) {
      if (err instanceof LinkExpiredError) return this.deps.pages.problem(410, 'This link has expired', 'Connect links work for 15 minutes.');
      if (err instanceof LinkSignatureError) return this.deps.pages.problem(403, 'This link is not valid', 'It is not a link Errand made, or it was changed.');
      throw err;
    }
    const link = this.r.store.connections.getLink(linkId);
    const connection = link === undefined ? undefined : this.r.store.connections.get(link.org_id, link.connection_id);
    if (link === undefined || connection === undefined) return this.deps.pages.problem(410, 'This link no longer works', 'Its connection was deleted.');
    if (link.status !== 'pending') return this.usedPage();
    const client = connection.provider === null ? undefined : this.deps.clients.get(connection.provider);
    if (client === undefined) return this.deps.pages.problem(410, 'This provider is not available', 'The operator no longer offers it.');
    return { link, connection, client };
  }

  private usedPage(): ConnectPage {
    return this.deps.pages.problem(409, 'This link was already used', 'Each connect link works once.');
  }

  private callbackUrl(): string {
    return `${this.deps.publicUrl()}/v1/connect/callback`;
  }

  /** The oauth connection a link is for: a new one, or the same provider's connection of that name connecting again. */
  private connectionFor(orgId: string, projectId: string | null, name: string, provider: string, envVarName: string): ConnectionRow {
    const existing = this.r.store.connections.inScope(orgId, projectId ?? '').find((row) => row.name === name && row.project_id === projectId);
    if (existing !== undefined) {
      if (existing.type !== 'oauth' || existing.provider !== provider) {
        throw new ConflictError('connection_name_taken', `${projectId === null ? 'the organisation' : `project ${projectId}`} already has a connection named ${name}`, { param: 'name' });
      }
      return existing;
    }
    const holder = this.r.store.connections.envVarTakenBy(orgId, projectId, envVarName);
    if (holder !== null) throw new ConflictError('env_var_name_taken', `the connection ${holder} is already injected as ${envVarName}`, { param: 'env_var_name' });
    const now = isoTime(this.r.clock.now());
    return this.r.store.connections.insert({
      id: this.r.ids('conn'),
      org_id: orgId,
      project_id: projectId,
      name,
      type: 'oauth',
      env_var_name: envVarName,
      provider,
      auth_status: 'pending',
      auth_detail: 'waiting for someone to open the connect link and approve',
      created_at: now,
      updated_at: now,
    });
  }
}

function hashState(state: string): string {
  return createHash('sha256').update(state).digest('hex');
}

function checkRedirectUrl(url: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new InvalidRequestError('invalid_body', 'redirect_url must be an absolute http or https URL', { param: 'redirect_url' });
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw new InvalidRequestError('invalid_body', 'redirect_url must be http or https', { param: 'redirect_url' });
}

/** The caller's page, told how the flow ended: `connection_id`, `status`, and `error` when it failed. */
function backTo(redirectUrl: string, connectionId: string, status: 'authenticated' | 'failed', error: string | null): string {
  const url = new URL(redirectUrl);
  url.searchParams.set('connection_id', connectionId);
  url.searchParams.set('status', status);
  if (error !== null) url.searchParams.set('error', error);
  return url.href;
}
