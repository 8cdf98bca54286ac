import type { BrowserState } from '../sandbox/protocol.js';
import type { SecretBox } from '../secrets/secret-box.js';
import type { ProfileRow } from '../store/profiles-table.js';

/** A state as the store keeps it: sealed, with what the API shows of it. */
export interface SealedState {
  state_enc: string;
  state_bytes: number;
  origins: string;
}

/**
 * Seals and opens profiles' states, bound to the profile's id (a sealed state copied onto another profile does not
 * open). Nothing outside the profiles code sees a sealed or opened state, and nothing logs one.
 */
export class ProfileStates {
  constructor(private readonly box: SecretBox) {}

  seal(profileId: string, state: BrowserState): SealedState {
    const json = JSON.stringify(state);
    return { state_enc: this.box.seal(json, profileId), state_bytes: Buffer.byteLength(json), origins: JSON.stringify(originsOf(state)) };
  }

  /** The profile's state, or null when it holds none. */
  open(row: ProfileRow): BrowserState | null {
    return row.state_enc === null ? null : (JSON.parse(this.box.open(row.state_enc, row.id)) as BrowserState);
  }
}

/** The size a state is sealed at, to hold it against profiles.max_state_kb before sealing. */
export function stateBytes(state: BrowserState): number {
  return Buffer.byteLength(JSON.stringify(state));
}

/** The sites a state holds: its origins with storage, and its cookies' domains (without a leading dot), sorted. */
export function originsOf(state: BrowserState): string[] {
  const sites = new Set<string>();
  for (const origin of state.origins) if (origin.localStorage.length > 0 || (origin.indexedDB?.length ?? 0) > 0) sites.add(origin.origin);
  for (const cookie of state.cookies) sites.add(cookie.domain.replace(/^\./, ''));
  return [...sites].sort();
}
