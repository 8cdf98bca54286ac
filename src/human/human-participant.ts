import type { AttemptParticipant } from '../attempt/attempt-participant.js';
import type { Store } from '../store/store.js';

/**
 * A person in the loop, in a later attempt of a run (the daemon running an earlier one stopped): the agent is told
 * what a person answered the earlier attempts, so that an answer is never lost with its attempt, nor asked for again
 * (docs/api.md, "What a run waits for"). A question asked again word for word gets the same answer at once
 * (HumanRequests.ask).
 */
export function humanParticipant(store: Pick<Store, 'humanRequests'>): AttemptParticipant {
  return {
    name: 'human',
    async join(attempt) {
      if (attempt.run.attempt === 1) return null;
      const answered = store.humanRequests.answeredBefore(attempt.run.id, attempt.run.attempt);
      if (answered.length === 0) return null;
      const lines = answered.map((r) => {
        const said = r.kind === 'approve' ? (r.approved === 1 ? 'APPROVED' : 'DENIED') : r.kind === 'answer' ? JSON.stringify(r.answer ?? '') : 'did it and handed back';
        const note = r.note === null || r.note === '' ? '' : ` (their note: ${JSON.stringify(r.note)})`;
        return `- ${r.kind} ${JSON.stringify(r.question)}: ${said}, by ${r.answered_by ?? 'a person'}${note}`;
      });
      const briefing = [
        'An earlier attempt of this run ended before it finished (the daemon running it stopped). A person answered what it asked:',
        ...lines,
        'Use these answers rather than asking again; a takeover done then may not have survived, so look at the page first.',
      ].join('\n');
      return { joined: { briefing } };
    },
  };
}
