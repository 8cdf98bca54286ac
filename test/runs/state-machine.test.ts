import { describe, expect, it } from 'vitest';
import { canTransition, IllegalTransitionError, RUN_TRANSITIONS } from '../../src/runs/state-machine.js';
import { isTerminal, TERMINAL_STATUSES, type RunStatus } from '../../src/vocabulary/run-status.js';

const STATUSES: RunStatus[] = ['queued', 'running', 'succeeded', 'failed', 'cancelled'];

/** The transitions of API-DECISIONS.md, and no others. */
const DECIDED = new Set([
  'queued>running',
  'running>succeeded',
  'running>failed',
  'queued>cancelled',
  'running>cancelled',
  'running>queued',
]);

describe('the run state machine', () => {
  it('allows exactly the decided transitions', () => {
    for (const from of STATUSES) {
      for (const to of STATUSES) expect(canTransition(from, to), `${from} -> ${to}`).toBe(DECIDED.has(`${from}>${to}`));
    }
  });

  it('knows every status', () => {
    expect(Object.keys(RUN_TRANSITIONS).sort()).toEqual([...STATUSES].sort());
  });

  it('makes succeeded, failed and cancelled terminal, and nothing else', () => {
    expect(TERMINAL_STATUSES).toEqual(['succeeded', 'failed', 'cancelled']);
    for (const s of STATUSES) expect(isTerminal(s), s).toBe((TERMINAL_STATUSES as readonly RunStatus[]).includes(s));
  });

  it('gives a terminal status no move, and every other status one', () => {
    for (const s of STATUSES) expect(RUN_TRANSITIONS[s].length === 0, s).toBe(isTerminal(s));
  });

  it('names both ends of an illegal transition', () => {
    const err = new IllegalTransitionError('succeeded', 'running');
    expect(err.message).toContain('succeeded');
    expect(err.message).toContain('running');
    expect(err).toMatchObject({ from: 'succeeded', to: 'running' });
  });
});
