import type { AttemptParticipant } from '../attempt/attempt-participant.js';
import type { HumanRequestRow } from '../store/human-requests-store.js';
import type { Store } from '../store/store.js';

/**
 * A person in the loop, in a later attempt of a run (the daemon running an earlier one stopped): the agent is told
 * what a person answered the earlier attempts, when it starts and, for an answer that comes while it runs, before its
 * next model call; so an answer is never lost with its attempt, nor asked for again (docs/api.md, "What a run waits
 * for"). A question asked again word for word gets the same answer at once (HumanRequests.ask).
 */
export function humanParticipant(store: Pick<Store, 'humanRequests'>): AttemptParticipant {
  return {
    name: 'human',
    async join(attempt) {
      if (attempt.run.attempt === 1) return null;
      const { id: runId, attempt: number } = attempt.run;
      const told = new Set<string>();
      const untold = (): HumanRequestRow[] => store.humanRequests.answeredBefore(runId, number).filter((r) => !told.has(r.id) && told.add(r.id));
      const answered = untold();
      return {
        joined: {
          ...(answered.length === 0 ? {} : { briefing: [BRIEFING, ...answered.map(line), AFTER].join('\n') }),
          notes: () => {
            const late = untold();
            return late.length === 0 ? [] : [[LATE, ...late.map(line), AFTER].join('\n')];
          },
        },
      };
    },
  };
}

const BRIEFING = 'An earlier attempt of this run ended before it finished (the daemon running it stopped). A person answered what it asked:';
const LATE = 'A person just answered what an earlier attempt of this run asked (it ended before it could use the answer):';
const AFTER = 'Use these answers rather than asking again; a takeover done then may not have survived, so look at the page first.';

function line(r: HumanRequestRow): string {
  const said = r.kind === 'approve' ? (r.approved === 1 ? 'APPROVED' : 'DENIED') : r.kind === 'answer' ? JSON.stringify(r.answer ?? '') : 'did it and handed back';
  const note = r.note === null || r.note === '' ? '' : ` (their note: ${JSON.stringify(r.note)})`;
  return `- ${r.kind} ${JSON.stringify(r.question)}: ${said}, by ${r.answered_by ?? 'a person'}${note}`;
}
