import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { SubsystemList, type Subsystem } from '../../src/subsystem.js';

/** A part that writes what happens to it into `journal`; `failClose` makes its close throw. */
function part(name: string, journal: string[], options: { failClose?: boolean } = {}): Subsystem {
  return {
    name,
    services: {},
    async start() {
      journal.push(`start ${name}`);
    },
    async close() {
      journal.push(`close ${name}`);
      if (options.failClose) throw new Error(`${name} broke`);
    },
  };
}

/** A logger whose lines land in `lines`, parsed. */
function capturingLogger(lines: Record<string, unknown>[]) {
  return pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) });
}

describe('SubsystemList', () => {
  it('starts the parts in list order and closes them in the reverse order', async () => {
    const journal: string[] = [];
    const list = new SubsystemList([part('a', journal), part('b', journal), part('c', journal)], capturingLogger([]));
    await list.start();
    await list.close();
    expect(journal).toEqual(['start a', 'start b', 'start c', 'close c', 'close b', 'close a']);
  });

  it('closes every part once, however often it is closed', async () => {
    const journal: string[] = [];
    const list = new SubsystemList([part('a', journal), part('b', journal)], capturingLogger([]));
    await Promise.all([list.close(), list.close()]);
    await list.close();
    expect(journal).toEqual(['close b', 'close a']);
  });

  it('closes the rest when a part fails to close, logs the failure by name, and rejects naming it', async () => {
    const journal: string[] = [];
    const lines: Record<string, unknown>[] = [];
    const list = new SubsystemList([part('store', journal), part('webhooks', journal, { failClose: true }), part('engine', journal)], capturingLogger(lines));
    await expect(list.close()).rejects.toThrow('failed to close: webhooks');
    expect(journal).toEqual(['close engine', 'close webhooks', 'close store']);
    expect(lines).toEqual([expect.objectContaining({ level: 50, part: 'webhooks', msg: 'webhooks failed to close', err: expect.objectContaining({ message: 'webhooks broke' }) })]);
  });

  it('stops starting at the first part that fails to start, and still closes every part', async () => {
    const journal: string[] = [];
    const failing: Subsystem = { name: 'http', services: {}, start: () => Promise.reject(new Error('port in use')), close: () => void journal.push('close http') };
    const list = new SubsystemList([part('store', journal), failing, part('engine', journal)], capturingLogger([]));
    await expect(list.start()).rejects.toThrow('port in use');
    await list.close();
    expect(journal).toEqual(['start store', 'close engine', 'close http', 'close store']);
  });

  it('passes over parts with nothing to start or close', async () => {
    const journal: string[] = [];
    const list = new SubsystemList([part('a', journal), { name: 'services only', services: {} }, part('b', journal)], capturingLogger([]));
    await list.start();
    await list.close();
    expect(journal).toEqual(['start a', 'start b', 'close b', 'close a']);
  });
});
