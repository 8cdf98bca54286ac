import { describe, expect, it } from 'vitest';
import { ClaimOrder } from '../../src/engine/claim-order.js';
import type { ClaimableRun, WaitingOrg } from '../../src/store/runs-store.js';

/** Queued runs by organisation, oldest first; ids sort by age as ULIDs do. */
function queues(runs: Record<string, string[]>): { waiting: (running: Record<string, number>) => WaitingOrg[]; nextOf: (orgId: string, afterId: string) => ClaimableRun | undefined } {
  const run = (org: string, id: string): ClaimableRun => ({ id, org_id: org, attempt: 0, started_at: null, sandbox_label: null });
  return {
    waiting: (running) => Object.entries(runs).map(([org, ids]) => ({ ...run(org, ids[0]!), running: running[org] ?? 0 })),
    nextOf: (org, after) => {
      const id = runs[org]!.find((x) => x > after);
      return id === undefined ? undefined : run(org, id);
    },
  };
}

/** Claims every run the order offers, in its order. */
function drain(order: ClaimOrder): string[] {
  const taken: string[] = [];
  for (let next = order.peek(); next !== null; next = order.peek()) {
    taken.push(next.id);
    order.claimed(next);
  }
  return taken;
}

describe('ClaimOrder', () => {
  it('gives the next slot to the organisation running fewest, even when another has older runs queued', () => {
    const q = queues({ a: ['r01', 'r02', 'r03'], b: ['r09'] });
    const order = new ClaimOrder(q.waiting({ a: 4, b: 0 }), 10, q.nextOf);
    expect(order.peek()?.id).toBe('r09');
  });

  it('goes round the waiting organisations, oldest run first on a tie, and stops each at its limit', () => {
    const q = queues({ a: ['r01', 'r02', 'r03', 'r04'], b: ['r05', 'r06'], c: ['r07'] });
    expect(drain(new ClaimOrder(q.waiting({}), 3, q.nextOf))).toEqual(['r01', 'r05', 'r07', 'r02', 'r06', 'r03']);
  });

  it('counts runs already running, and leaves out an organisation at its limit', () => {
    const q = queues({ a: ['r01', 'r02'], b: ['r05', 'r06', 'r07'], c: ['r08'] });
    expect(drain(new ClaimOrder(q.waiting({ a: 3, b: 1 }), 3, q.nextOf))).toEqual(['r08', 'r05', 'r06']);
  });

  it('offers an organisation’s next run when one is passed over, without counting it as running', () => {
    const q = queues({ a: ['r01', 'r02'], b: ['r05'] });
    const order = new ClaimOrder(q.waiting({ a: 0, b: 1 }), 5, q.nextOf);
    order.passedOver(order.peek()!);
    expect(order.peek()?.id).toBe('r02');
    order.passedOver(order.peek()!);
    expect(order.peek()?.id).toBe('r05');
  });
});
