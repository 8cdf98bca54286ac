import type { Principal } from './keys-service.js';

/** Whom something held open counts against: an API key and its organisation. */
export type Holder = Pick<Principal, 'keyId' | 'orgId'>;

const NONE: ReadonlySet<never> = new Set();

/**
 * Things callers hold open (MCP sessions, event streams), listed by API key and by organisation, so that a cap per
 * key and per organisation is a lookup rather than a walk of everything open, and one tenant can use up only its
 * own share (issue 21).
 */
export class HeldByPrincipal<T> {
  private readonly byKey = new Map<string, Set<T>>();
  private readonly byOrg = new Map<string, Set<T>>();
  private count = 0;

  get size(): number {
    return this.count;
  }

  ofKey(keyId: string): ReadonlySet<T> {
    return this.byKey.get(keyId) ?? NONE;
  }

  ofOrg(orgId: string): ReadonlySet<T> {
    return this.byOrg.get(orgId) ?? NONE;
  }

  add(holder: Holder, item: T): void {
    const before = this.ofKey(holder.keyId).size;
    listUnder(this.byKey, holder.keyId).add(item);
    listUnder(this.byOrg, holder.orgId).add(item);
    if (this.ofKey(holder.keyId).size > before) this.count += 1;
  }

  /** Answers false when the item was not held (released already). */
  delete(holder: Holder, item: T): boolean {
    const released = dropFrom(this.byKey, holder.keyId, item);
    dropFrom(this.byOrg, holder.orgId, item);
    if (released) this.count -= 1;
    return released;
  }
}

function listUnder<T>(index: Map<string, Set<T>>, name: string): Set<T> {
  let items = index.get(name);
  if (items === undefined) index.set(name, (items = new Set()));
  return items;
}

function dropFrom<T>(index: Map<string, Set<T>>, name: string, item: T): boolean {
  const items = index.get(name);
  if (!items?.delete(item)) return false;
  if (items.size === 0) index.delete(name);
  return true;
}
