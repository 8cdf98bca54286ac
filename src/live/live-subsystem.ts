import type { AttemptParticipant } from '../attempt/attempt-participant.js';
import type { OrgModes } from '../orgs/org-modes.js';
import type { Resources } from '../resources.js';
import type { RunsService } from '../runs/runs-service.js';
import type { Subsystem } from '../subsystem.js';
import type { HumanRequests } from '../human/human-requests.js';
import type { Waitpoints } from '../waitpoints/waitpoints.js';
import { LiveLinks } from './live-links.js';
import { liveParticipant } from './live-participant.js';
import { LiveRuns } from './live-runs.js';
import { LiveService, type LoginSaver } from './live-service.js';

export interface LiveServices {
  /** Signed single-run links (and the narrow credential the API accepts from their holders). */
  links: LiveLinks;
  /** The live view's API: frames, control, input, state, revocation. */
  live: LiveService;
  /** Its part in each attempt: the attempt listed for the live view, with the gate a person's control shuts. */
  participant: AttemptParticipant;
}

/** The live view and takeover (docs/api.md): running runs' envelopes carry its link from here on. */
export function liveSubsystem(deps: {
  resources: Resources;
  masterKey: Buffer;
  publicUrl: () => string;
  runs: RunsService;
  orgModes: OrgModes;
  /** Handing control back answers the takeover the agent asked for. */
  human: Pick<HumanRequests, 'answer'>;
  waitpoints: Waitpoints;
  /** Where "save this login" saves (the profiles). */
  logins: LoginSaver;
}): Subsystem<LiveServices> {
  const { clock, store, config } = deps.resources;
  const links = new LiveLinks({ masterKey: deps.masterKey, clock, publicUrl: deps.publicUrl, runStatus: (orgId, runId) => store.runs.get(orgId, runId)?.status ?? null });
  const running = new LiveRuns();
  deps.runs.useLiveLinks((orgId, runId) => links.urlOf(orgId, runId));
  const live = new LiveService({ clock, links, live: running, runs: deps.runs, steps: store.steps, orgModes: deps.orgModes, human: deps.human, waitpoints: deps.waitpoints, store, config, logins: deps.logins });
  return { name: 'live', services: { links, live, participant: liveParticipant(running) } };
}
