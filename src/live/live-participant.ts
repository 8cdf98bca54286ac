import type { AttemptParticipant } from '../attempt/attempt-participant.js';
import { ControlGate } from './control-gate.js';
import type { LiveRuns } from './live-runs.js';

/**
 * The live view's part in an attempt (docs/api.md, Live view and takeover): the attempt is listed for the live view
 * from its sandbox's start to its end, with the gate a person's control shuts, which the agent passes before each
 * model and tool call.
 */
export function liveParticipant(live: LiveRuns): AttemptParticipant {
  return {
    name: 'live',
    async join(attempt) {
      const gate = new ControlGate();
      const detach = live.attach({ orgId: attempt.run.org_id, runId: attempt.run.id, sandbox: attempt.sandbox, gate, mask: attempt.mask });
      return { joined: { gate }, close: async () => detach() };
    },
  };
}
