import type { SendService } from '../mail/outbound/send-service.js';
import type { RunRow } from '../store/runs-table.js';
import type { PersonWait } from '../runs/waiting-for.js';

/** What the person is sent: the request, until when it waits, and the run's live view. */
export type AskedOfPerson = PersonWait & { expires_at: string; live_url: string | null };

/** Emails a run's `human_email` what its agent asks; a reply to the message answers it (HumanRequests). */
export interface HumanNotifier {
  /** Sends the message; answers its id, whose replies are matched to it by the mail's reply correlation. */
  send(run: RunRow, waiting: AskedOfPerson, answerUrl: string, to: string): Promise<string>;
}

const HOW_TO_REPLY = {
  answer: 'Reply to this email with your answer: the agent gets the text of your reply.',
  approve: 'Reply with "yes" to approve or "no" to refuse (the first word of your reply counts; the rest goes to the agent as a note).',
  takeover: 'Do what is needed in the live view below and hand back there, or reply to this email with what you did.',
} as const;

/** A takeover without a live view: the person can only do it another way (a code read out, a login made elsewhere). */
const TAKEOVER_WITHOUT_LIVE_VIEW = 'No live view of this run can be offered: do what is needed another way and reply to this email with what you did.';

/** Sent from the organisation's identity, as any send: so it is DKIM-signed, queued durably, and its replies correlate. */
export function emailNotifier(emails: SendService): HumanNotifier {
  return {
    async send(run, waiting, answerUrl, to) {
      const what = run.name ?? run.id;
      const text = [
        `The agent of run ${run.id}${run.name === null ? '' : ` (${run.name})`} asks for a person (${waiting.kind}):`,
        '',
        waiting.question,
        ...(waiting.asked_again_of === null
          ? []
          : ['', `This is asked again: the run's earlier attempt asked it (${waiting.asked_again_of}) and ended before anybody answered, because the daemon running it stopped.`]),
        '',
        waiting.kind === 'takeover' && waiting.live_url === null ? TAKEOVER_WITHOUT_LIVE_VIEW : HOW_TO_REPLY[waiting.kind],
        ...(waiting.live_url === null ? [] : ['', `Live view: ${waiting.live_url}`]),
        '',
        `With an API key: POST ${answerUrl} with request_id ${waiting.request_id}, or errand runs answer ${run.id} --request ${waiting.request_id}.`,
        `If nobody answers by ${waiting.expires_at}, the run fails.`,
      ].join('\n');
      const sent = await emails.send({
        orgId: run.org_id,
        keyId: null,
        inboxId: null,
        body: { to, subject: `Errand: a run needs you (${waiting.kind}): ${what}`.replace(/\s+/g, ' ').slice(0, 998), text },
        metadataJson: null,
      });
      return sent.body.message_id;
    },
  };
}
