import { isoTime, type Clock } from '../../clock.js';
import type { EventBus } from '../../events.js';
import type { ReceivedEmailRow } from '../../store/received-emails-store.js';
import type { Store } from '../../store/store.js';
import { RUN_PREFIX } from '../addresses.js';
import type { MailTokens } from '../mail-tokens.js';

export interface MailFilter {
  /** Part of the sender's address, compared without case. */
  from?: string;
  /** Part of the subject, compared without case. */
  subjectContains?: string;
}

/**
 * Each run's own receiving address, `run-<token>@<relay domain>`, made when its agent first asks for it. The
 * inbound server accepts mail for it only while the run is running; what arrives is stored like any received mail
 * (with the run's id) and announced to the run's `wait_for_email`.
 */
export class RunMailboxes {
  constructor(private readonly o: { store: Store; clock: Clock; bus: EventBus; tokens: MailTokens; relayDomain: string }) {}

  /** The run's address, recorded on first use. */
  addressFor(runId: string, orgId: string): string {
    const token = this.o.tokens.runToken(runId);
    this.o.store.receivedEmails.addRunMailbox({ token, run_id: runId, org_id: orgId, created_at: isoTime(this.o.clock.now()) });
    return `${RUN_PREFIX}${token}@${this.o.relayDomain}`;
  }

  /**
   * The oldest message to the run that matches `filter` and is not in `seen`, waiting up to `timeoutMs` for one to
   * arrive; null when none did. Throws the signal's reason when the run is stopped while it waits.
   */
  async waitFor(runId: string, filter: MailFilter, seen: ReadonlySet<string>, timeoutMs: number, signal: AbortSignal): Promise<ReceivedEmailRow | null> {
    signal.throwIfAborted();
    let arrived = () => {};
    const unsubscribe = this.o.bus.on('wake.email_run_received', (event) => {
      if (event.runId === runId) arrived();
    });
    const deadline = this.o.clock.now() + timeoutMs;
    try {
      for (;;) {
        const found = this.o.store.receivedEmails.forRun(runId, '', 500).find((row) => !seen.has(row.id) && matches(row, filter));
        if (found !== undefined) return found;
        const left = deadline - this.o.clock.now();
        if (left <= 0) return null;
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(done, left);
          function done() {
            clearTimeout(timer);
            signal.removeEventListener('abort', stopped);
            resolve();
          }
          function stopped() {
            clearTimeout(timer);
            reject(signal.reason);
          }
          arrived = done;
          signal.addEventListener('abort', stopped, { once: true });
        });
      }
    } finally {
      unsubscribe();
    }
  }
}

function matches(row: ReceivedEmailRow, filter: MailFilter): boolean {
  if (filter.from !== undefined && !row.from_address.toLowerCase().includes(filter.from.toLowerCase())) return false;
  if (filter.subjectContains !== undefined && !row.subject.toLowerCase().includes(filter.subjectContains.toLowerCase())) return false;
  return true;
}
