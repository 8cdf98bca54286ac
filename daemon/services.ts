import type { ArtifactsService } from '../src/artifacts/artifacts-service.js';
import type { EvalCasesService } from '../src/evals/eval-cases-service.js';
import type { EvalsService } from '../src/evals/evals-service.js';
import type { FilesService } from '../src/files/files-service.js';
import type { EventStreams } from '../src/event-log/event-streams.js';
import type { ConnectionsService } from '../src/connections/connections-service.js';
import type { ProfilesService } from '../src/profiles/profiles-service.js';
import type { HostedConnect } from '../src/connections/oauth-client/hosted-connect.js';
import type { HumanRequests } from '../src/human/human-requests.js';
import type { JobsService } from '../src/jobs/jobs-service.js';
import type { RecipesService } from '../src/recipes/recipes-service.js';
import type { KeysService } from '../src/keys/keys-service.js';
import type { OrgModes } from '../src/orgs/org-modes.js';
import type { LiveLinks } from '../src/live/live-links.js';
import type { LiveService } from '../src/live/live-service.js';
import type { MailAttachments } from '../src/mail/inbound/attachments.js';
import type { IdentityService } from '../src/mail/identity/identity-service.js';
import type { InboxesService } from '../src/mail/identity/inboxes-service.js';
import type { ReceivedEmails } from '../src/mail/inbound/received-emails.js';
import type { SimulatedReplies } from '../src/mail/inbound/simulated-replies.js';
import type { SendService } from '../src/mail/outbound/send-service.js';
import type { SentEmails } from '../src/mail/outbound/sent-emails.js';
import type { Suppressions } from '../src/mail/outbound/suppressions.js';
import type { RateLimiter } from '../src/keys/rate-limiter.js';
import type { McpServices } from '../src/mcp-server/mcp-subsystem.js';
import type { ProjectsService } from '../src/projects/projects-service.js';
import type { RunsService } from '../src/runs/runs-service.js';
import type { RunFilesService } from '../src/run-files/run-files-service.js';
import type { SkippedFirings } from '../src/schedules/skipped-firings.js';
import type { StatusService } from '../src/status/status-service.js';
import type { StepsService } from '../src/steps/steps-service.js';

/**
 * The domain services the HTTP layer calls; built once by the daemon's subsystems (`daemon/wiring.ts`), or by a
 * test, and handed to `buildApp`. Every route plugin takes this object as its options and uses what it needs. The
 * MCP front door's and its authorization server's are the MCP subsystem's.
 */
export interface ApiServices extends McpServices {
  keys: KeysService;
  /** Whether a caller's organisation is live or a test-mode twin: every response's `livemode`. */
  orgModes: OrgModes;
  rateLimiter: RateLimiter;
  projects: ProjectsService;
  jobs: JobsService;
  recipes: RecipesService;
  evals: EvalsService;
  evalCases: EvalCasesService;
  runs: RunsService;
  human: HumanRequests;
  steps: StepsService;
  artifacts: ArtifactsService;
  runFiles: RunFilesService;
  eventStreams: EventStreams;
  status: StatusService;
  skippedFirings: SkippedFirings;
  connections: ConnectionsService;
  /** Saved logins (docs/api.md, Profiles). */
  profiles: ProfilesService;
  hostedConnect: HostedConnect;
  emails: SendService;
  sentEmails: SentEmails;
  identities: IdentityService;
  suppressions: Suppressions;
  receivedEmails: ReceivedEmails;
  simulatedReplies: SimulatedReplies;
  mailAttachments: MailAttachments;
  inboxes: InboxesService;
  live: LiveService;
  liveLinks: LiveLinks;
  files: FilesService;
}
