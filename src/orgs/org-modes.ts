import type { OrgsStore } from '../store/orgs-store.js';

/**
 * Whether an organisation is live or a test-mode twin (issue 25), as the hot paths ask it: every response's
 * `livemode`, every event's, the engine's choice of runner. An organisation never changes mode, so an answer is kept.
 */
export class OrgModes {
  private readonly known = new Map<string, boolean>();

  constructor(private readonly orgs: Pick<OrgsStore, 'get'>) {}

  /** False for a test-mode twin; true for a live organisation and for one that does not exist (yet). */
  livemode(orgId: string): boolean {
    const kept = this.known.get(orgId);
    if (kept !== undefined) return kept;
    const row = this.orgs.get(orgId);
    if (row === undefined) return true;
    const live = row.live_org_id === null;
    this.known.set(orgId, live);
    return live;
  }
}
