import { emailAddressTool } from './email-address-tool.js';
import type { ToolSource } from '../../agent-tools/agent-tool.js';
import { waitForEmailTool, type AgentMail } from './wait-for-email-tool.js';
import type { ReceivedEmailRow } from '../../store/received-emails-store.js';
import type { RunMailboxes } from './run-mailboxes.js';

/** Links an agent may follow from a message, at most. */
const LINK_LIMIT = 20;

/**
 * The mail tools of a run, `email_address` and `wait_for_email`, given to every attempt when the installation
 * receives mail. What one attempt has read is not returned to it again.
 */
export function runMailboxTools(mailboxes: RunMailboxes): ToolSource {
  return {
    async open(run) {
      const seen = new Set<string>();
      const address = () => mailboxes.addressFor(run.id, run.org_id);
      const next = async (input: { from?: string; subjectContains?: string; timeoutS: number }, signal: AbortSignal): Promise<AgentMail | null> => {
        address();
        const row = await mailboxes.waitFor(run.id, input, seen, input.timeoutS * 1000, signal);
        if (row === null) return null;
        seen.add(row.id);
        return toAgentMail(row);
      };
      return { tools: [emailAddressTool(address), waitForEmailTool(next)], close: async () => undefined };
    },
  };
}

function toAgentMail(row: ReceivedEmailRow): AgentMail {
  const links = new Set<string>();
  for (const source of [row.html ?? '', row.text]) {
    for (const match of source.matchAll(/https?:\/\/[^\s<>"'()\]]+/g)) {
      if (links.size >= LINK_LIMIT) break;
      links.add(match[0].replace(/&amp;/g, '&').replace(/[.,;:!?]+$/, ''));
    }
  }
  return { from: row.from_address, subject: row.subject, receivedAt: row.received_at, text: row.text, links: [...links] };
}
