import type { ConnectionsService } from '../connections/connections-service.js';
import type { ProfilesService } from '../profiles/profiles-service.js';
import type { HostedConnect } from '../connections/oauth-client/hosted-connect.js';
import type { JobsService } from '../jobs/jobs-service.js';
import type { KeysService } from '../keys/keys-service.js';
import type { RateLimiter } from '../keys/rate-limiter.js';
import type { SendService } from '../mail/outbound/send-service.js';
import type { SentEmails } from '../mail/outbound/sent-emails.js';
import { packageVersion } from '../package-root.js';
import type { ProjectsService } from '../projects/projects-service.js';
import type { Resources } from '../resources.js';
import type { RunsService } from '../runs/runs-service.js';
import type { Subsystem } from '../subsystem.js';
import { McpEndpoints } from './endpoints.js';
import { McpFrontDoor } from './front-door.js';
import { McpAuthenticator } from './mcp-authenticator.js';
import { ClientRegistry } from './oauth-server/client-registry.js';
import { ConsentFlow } from './oauth-server/consent-flow.js';
import { ConsentPages } from './oauth-server/consent-page.js';
import { TokenEndpoint } from './oauth-server/token-endpoint.js';
import { connectionManagementTools } from './tools/connection-management-tools.js';
import { profileTools } from './tools/profile-tools.js';
import { coreTools } from './tools/core-tools.js';
import { answerRunTool } from './tools/answer-run-tool.js';
import { getRunFilesTool } from './tools/get-run-files-tool.js';
import type { RunFilesService } from '../run-files/run-files-service.js';
import type { HumanRequests } from '../human/human-requests.js';
import { emailTools } from './tools/email-tools.js';
import { RunWaiter } from './tools/run-waiter.js';
import { McpToolRegistry } from './tools/tool-registry.js';
import type { OrgModes } from '../orgs/org-modes.js';

/** Messages an MCP session keeps for clients resuming a broken stream: a long run's progress with room to spare. */
const MCP_REPLAY_EVENTS = 1000;

export interface McpSubsystemDeps {
  resources: Resources;
  /** Signs users in: a grant acts under an API key. */
  keys: KeysService;
  /** The REST API's: a key has one request rate, whichever door it comes through. */
  rateLimiter: RateLimiter;
  publicUrl: () => string;
  runs: RunsService;
  runFiles: RunFilesService;
  human: HumanRequests;
  jobs: JobsService;
  projects: ProjectsService;
  connections: ConnectionsService;
  hostedConnect: HostedConnect;
  profiles: ProfilesService;
  emails: SendService;
  sentEmails: SentEmails;
  orgModes: OrgModes;
}

export interface McpServices {
  mcp: McpFrontDoor;
  mcpAuth: McpAuthenticator;
  mcpEndpoints: McpEndpoints;
  oauthClients: ClientRegistry;
  consent: ConsentFlow;
  tokens: TokenEndpoint;
}

/** The MCP front door (the same services, as tools) and its OAuth 2.1 authorization server. */
export function mcpSubsystem(deps: McpSubsystemDeps): Subsystem<McpServices> {
  const { resources, keys, runs, jobs, projects } = deps;
  const { config, clock, logger } = resources;
  const mcpLogger = logger.child({ component: 'mcp' });
  const mcpEndpoints = new McpEndpoints(deps.publicUrl);
  const waiter = new RunWaiter({ runs, events: resources.events, lookEveryMs: 1000 });
  // A tool from another area is one more entry in this list.
  const mcpTools = new McpToolRegistry(
    [
      ...coreTools({ runs, jobs, projects, waiter, maxWaitS: config['mcp.run_wait_s'] }),
      answerRunTool({ human: deps.human }),
      getRunFilesTool({ runFiles: deps.runFiles }),
      ...connectionManagementTools({ connections: deps.connections, hostedConnect: deps.hostedConnect }),
      ...profileTools({ profiles: deps.profiles }),
      ...emailTools({ emails: deps.emails, sentEmails: deps.sentEmails }),
    ],
    mcpLogger,
    (orgId) => deps.orgModes.livemode(orgId),
  );
  const mcp = new McpFrontDoor({
    tools: mcpTools,
    endpoints: mcpEndpoints,
    logger: mcpLogger,
    clock,
    version: packageVersion(),
    sessionLimits: { total: config['mcp.max_sessions'], perKey: config['mcp.sessions_per_key'], perOrg: config['mcp.sessions_per_org'] },
    sessionIdleMs: config['mcp.session_idle_s'] * 1000,
    replayEvents: MCP_REPLAY_EVENTS,
    allowedOrigins: (config['mcp.allowed_origins'] ?? '').split(',').map((o) => o.trim()).filter(Boolean),
  });
  const oauthClients = new ClientRegistry(resources);
  const consent = new ConsentFlow(resources, { clients: oauthClients, keys, endpoints: mcpEndpoints, pages: new ConsentPages(mcpTools.consent()) });
  const tokens = new TokenEndpoint(resources, { clients: oauthClients, endpoints: mcpEndpoints });
  const mcpAuth = new McpAuthenticator({ keys, rateLimiter: deps.rateLimiter, endpoints: mcpEndpoints, accessTokens: tokens });
  return {
    name: 'mcp',
    services: { mcp, mcpAuth, mcpEndpoints, oauthClients, consent, tokens },
    // Open MCP streams would hold the API's server open; tool calls waiting for runs answer first.
    close: () => mcp.close(),
  };
}
