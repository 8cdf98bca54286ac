import type { AgentTool } from '../agent-tools/agent-tool.js';
import type { EventAnnouncer } from '../event-log/event-announcer.js';
import type { Resources } from '../resources.js';
import type { RunsService } from '../runs/runs-service.js';
import type { RunRow } from '../store/runs-table.js';
import type { Subsystem } from '../subsystem.js';
import type { HumanNotifier } from './human-notifier.js';
import { HumanRequests } from './human-requests.js';
import { humanParticipant } from './human-participant.js';
import type { AttemptParticipant } from '../attempt/attempt-participant.js';
import type { Waitpoints } from '../waitpoints/waitpoints.js';
import { requestHumanTool } from './request-human-tool.js';
import type { LiveUrlOf } from '../runs/waiting-for.js';

export interface HumanServices {
  /** The agent's requests for a person and their answers (request_human, POST /v1/runs/{id}/human). */
  human: HumanRequests;
  /** The request_human tool, which every run has. */
  tool: AgentTool;
  /** Whether a run may not submit a form yet: it requires a person's approval and has none (require_approval). */
  submissionHold: (run: RunRow) => boolean;
  /** Its part in each attempt: a later attempt is told what a person answered the earlier ones. */
  participant: AttemptParticipant;
}

/** A person in the loop (docs/api.md): requests, answers by API or email, their end with the run's attempt. */
export function humanSubsystem(deps: { resources: Resources; runs: RunsService; announcer: EventAnnouncer; publicUrl: () => string; liveUrlOf: LiveUrlOf; notifier: HumanNotifier; waitpoints: Waitpoints }): Subsystem<HumanServices> {
  const { resources, runs, ...options } = deps;
  const human = new HumanRequests(resources, { runs, ...options });
  runs.addTransitionHook(human.endHook);
  return {
    name: 'human',
    services: { human, tool: requestHumanTool(human), submissionHold: (run) => run.require_approval === 1 && !human.hasApproval(run), participant: humanParticipant(resources.store) },
  };
}
