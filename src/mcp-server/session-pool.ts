import { HeldByPrincipal, type Holder } from '../keys/held-by-principal.js';

/** What the pool reads of a session. */
export interface PooledSession {
  holder: Holder;
  /** Requests and streams of the session still open: a session with one is in use, never idle. */
  open: number;
  lastActive: number;
}

export interface SessionLimits {
  /** `mcp.max_sessions`: every session of the installation. */
  total: number;
  /** `mcp.sessions_per_key`: an API key's, with those of the OAuth grants acting under it. */
  perKey: number;
  /** `mcp.sessions_per_org`: an organisation's. */
  perOrg: number;
}

/** Why an initialize gets no session; `key` is the configuration key of the limit. */
export interface SessionRefusal {
  scope: 'key' | 'organisation' | 'installation';
  key: 'mcp.sessions_per_key' | 'mcp.sessions_per_org' | 'mcp.max_sessions';
  limit: number;
}

/**
 * The MCP sessions open, counted per API key, per organisation and in total (issue 21: one key filled the whole
 * installation's pool and locked every other organisation out). A caller at one of its limits makes room only from
 * its own sessions: its least recently used idle one gives way (the key's, else the organisation's), so a caller
 * exhausts only its own share. When it has none idle, it is refused.
 */
export class SessionPool<S extends PooledSession> {
  private readonly held = new HeldByPrincipal<S>();

  constructor(private readonly limits: SessionLimits) {}

  get size(): number {
    return this.held.size;
  }

  /**
   * Room for one more session of `holder`: answers the sessions that give way for it, released from the pool
   * already (the caller closes them), or the limit that refuses it. Nothing is released when it is refused.
   */
  makeRoom(holder: Holder): { evicted: S[] } | { refused: SessionRefusal } {
    const evicted: S[] = [];
    const ownKey = this.held.ofKey(holder.keyId);
    const ownOrg = this.held.ofOrg(holder.orgId);
    const checks: [ReadonlySet<S>, number, SessionRefusal, ReadonlySet<S>[]][] = [
      [ownKey, this.limits.perKey, { scope: 'key', key: 'mcp.sessions_per_key', limit: this.limits.perKey }, [ownKey]],
      [ownOrg, this.limits.perOrg, { scope: 'organisation', key: 'mcp.sessions_per_org', limit: this.limits.perOrg }, [ownKey, ownOrg]],
    ];
    for (const [sessions, limit, refusal, donors] of checks) {
      if (!this.giveWay(remaining(sessions, evicted), limit, donors, evicted)) return { refused: refusal };
    }
    const total = this.held.size - evicted.length;
    if (!this.giveWay(total, this.limits.total, [ownKey, ownOrg], evicted)) {
      return { refused: { scope: 'installation', key: 'mcp.max_sessions', limit: this.limits.total } };
    }
    for (const session of evicted) this.release(session);
    return { evicted };
  }

  add(session: S): void {
    this.held.add(session.holder, session);
  }

  /** Takes a session out of the counts; nothing when it was out already. */
  release(session: S): void {
    this.held.delete(session.holder, session);
  }

  /**
   * Picks sessions from `donors`, in order, to give way until `count` is under `limit`; false when they have no
   * idle session left to give.
   */
  private giveWay(count: number, limit: number, donors: ReadonlySet<S>[], evicted: S[]): boolean {
    for (let n = count; n >= limit; n--) {
      const victim = donors.map((d) => leastRecentlyUsedIdle(d, evicted)).find((s) => s !== undefined);
      if (victim === undefined) return false;
      evicted.push(victim);
    }
    return true;
  }
}

function remaining<S>(sessions: ReadonlySet<S>, evicted: readonly S[]): number {
  return sessions.size - evicted.filter((s) => sessions.has(s)).length;
}

function leastRecentlyUsedIdle<S extends PooledSession>(sessions: ReadonlySet<S>, evicted: readonly S[]): S | undefined {
  let oldest: S | undefined;
  for (const s of sessions) {
    if (s.open > 0 || evicted.includes(s)) continue;
    if (oldest === undefined || s.lastActive < oldest.lastActive) oldest = s;
  }
  return oldest;
}
