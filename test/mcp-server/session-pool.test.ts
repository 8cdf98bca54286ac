import { describe, expect, it } from 'vitest';
import { SessionPool, type PooledSession } from '../../src/mcp-server/session-pool.js';

const A = { keyId: 'key_a', orgId: 'org_1' };
const A2 = { keyId: 'key_a2', orgId: 'org_1' };
const B = { keyId: 'key_b', orgId: 'org_2' };

function pooled(pool: SessionPool<PooledSession>, holder: typeof A, lastActive: number, open = 0): PooledSession {
  const session = { holder, open, lastActive };
  pool.add(session);
  return session;
}

describe('SessionPool', () => {
  it("makes room in a full installation from the caller's own idle sessions only, least recently used first", () => {
    const pool = new SessionPool({ total: 3, perKey: 10, perOrg: 10 });
    const older = pooled(pool, A, 1);
    pooled(pool, A, 2);
    pooled(pool, B, 0);

    expect(pool.makeRoom(A)).toEqual({ evicted: [older] });
    expect(pool.size).toBe(2);
  });

  it('refuses, and closes nothing, when the caller has no idle session to give', () => {
    const pool = new SessionPool({ total: 2, perKey: 10, perOrg: 10 });
    pooled(pool, A, 1);
    pooled(pool, A, 2, 1);

    expect(pool.makeRoom(B)).toEqual({ refused: { scope: 'installation', key: 'mcp.max_sessions', limit: 2 } });
    expect(pool.size).toBe(2);
  });

  it("takes the key's own idle session before another key's of the organisation", () => {
    const pool = new SessionPool({ total: 100, perKey: 10, perOrg: 2 });
    const colleague = pooled(pool, A2, 0);
    const own = pooled(pool, A, 5);

    expect(pool.makeRoom(A)).toEqual({ evicted: [own] });
    expect(pool.makeRoom(A)).toEqual({ evicted: [] });
    pool.add({ holder: A, open: 1, lastActive: 9 });
    expect(pool.makeRoom(A)).toEqual({ evicted: [colleague] });
  });

  it('counts a released session no more, and releasing twice changes nothing', () => {
    const pool = new SessionPool({ total: 100, perKey: 1, perOrg: 10 });
    const busy = pooled(pool, A, 0, 1);
    expect(pool.makeRoom(A)).toEqual({ refused: { scope: 'key', key: 'mcp.sessions_per_key', limit: 1 } });
    pool.release(busy);
    pool.release(busy);
    expect(pool.size).toBe(0);
    expect(pool.makeRoom(A)).toEqual({ evicted: [] });
  });
});
