import { LinkSigner } from '../artifacts/link-signer.js';
import type { EventAnnouncer } from '../event-log/event-announcer.js';
import { packageVersion } from '../package-root.js';
import type { ProjectsService } from '../projects/projects-service.js';
import type { Resources } from '../resources.js';
import type { SecretBox } from '../secrets/secret-box.js';
import type { Subsystem } from '../subsystem.js';
import type { TargetGuard } from '../network/target-guard.js';
import { ConnectionAuth } from './connection-auth.js';
import { ConnectionSecrets } from './connection-secrets.js';
import { ConnectionsService } from './connections-service.js';
import { checkMcpServer } from './mcp-client/mcp-check.js';
import { McpToolSource } from './mcp-client/mcp-tool-source.js';
import { ConnectPages } from './oauth-client/connect-pages.js';
import { CONNECT_LINK_VALIDITY_S, HostedConnect } from './oauth-client/hosted-connect.js';
import { OAuthClient } from './oauth-client/oauth-client.js';
import { parseOAuthProviders } from './oauth-client/oauth-providers.js';
import { TokenRefresher } from './oauth-client/token-refresher.js';
import { RunConnections } from './run-connections.js';
import { defaultEgressProxy } from './proxy/default-egress-proxy.js';

export interface ConnectionsSubsystemDeps {
  resources: Resources;
  projects: ProjectsService;
  /** Seals credentials at rest. */
  box: SecretBox;
  /** Derives the key that signs connect links. */
  masterKey: Buffer;
  announcer: EventAnnouncer;
  /** Where MCP servers and callback targets may be. */
  guard: TargetGuard;
  checkCallbackUrl: (url: string, param: string) => Promise<void>;
  publicUrl: () => string;
}

export interface ConnectionsServices {
  connections: ConnectionsService;
  hostedConnect: HostedConnect;
  /** What a run may use, with fresh tokens. */
  runConnections: RunConnections;
  /** The tools of the MCP servers a run is connected to. */
  toolSource: McpToolSource;
}

/**
 * What runs may use, and the MCP servers whose tools they are offered. Throws a `ConfigError` for an unusable
 * `oauth.providers`, before anything is started.
 */
export function connectionsSubsystem(deps: ConnectionsSubsystemDeps): Subsystem<ConnectionsServices> {
  const { resources, projects, box, announcer, guard, publicUrl } = deps;
  const { store, clock, config, logger } = resources;
  const mcpOptions = { guard, connectTimeoutMs: config['connections.mcp_connect_timeout_s'] * 1000, version: packageVersion() };
  const connectionAuth = new ConnectionAuth({ store, clock, announcer });
  const connectionSecrets = new ConnectionSecrets(box);
  const oauthProviders = new Map(
    [...parseOAuthProviders(config['oauth.providers'], { dev: config.dev })].map(([name, provider]) => [name, new OAuthClient(provider, () => clock.now())]),
  );
  const refresher = new TokenRefresher({ store, clock, secrets: connectionSecrets, auth: connectionAuth, clients: oauthProviders, logger: logger.child({ component: 'oauth' }) });
  const runConnections = new RunConnections({
    store,
    secrets: connectionSecrets,
    freshTokens: (row) => refresher.fresh(row),
    proxyAddresses: (host, param, trusted) => guard.publicAddresses(host, param, trusted),
    defaultProxy: defaultEgressProxy(config['sandbox.egress_proxy']),
  });
  const hostedConnect = new HostedConnect(resources, {
    projects,
    secrets: connectionSecrets,
    box,
    auth: connectionAuth,
    clients: oauthProviders,
    signer: new LinkSigner(deps.masterKey, { purpose: 'errand connect links v1', validityS: CONNECT_LINK_VALIDITY_S }),
    pages: new ConnectPages(),
    publicUrl,
  });
  const connections = new ConnectionsService(resources, {
    projects,
    secrets: connectionSecrets,
    auth: connectionAuth,
    checkTarget: deps.checkCallbackUrl,
    checkProxyHost: (host, param) => guard.publicAddresses(host, param),
    checkMcp: (endpoint) => checkMcpServer(endpoint, mcpOptions),
    checkOAuth: async (row) => {
      await refresher.fresh(row, { force: true });
    },
    lapsed: (row) => hostedConnect.lapsed(row),
  });
  const toolSource = new McpToolSource({
    connections: runConnections,
    secrets: connectionSecrets,
    auth: connectionAuth,
    session: mcpOptions,
    callTimeoutMs: config['connections.mcp_call_timeout_s'] * 1000,
    recheck: (row) => connections.checkRow(store.connections.get(row.org_id, row.id) ?? row),
    logger: logger.child({ component: 'mcp' }),
  });
  return { name: 'connections', services: { connections, hostedConnect, runConnections, toolSource } };
}
