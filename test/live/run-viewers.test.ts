import { describe, expect, it } from 'vitest';
import { TooManyViewersError } from '../../src/live/live-errors.js';
import { LINK_VIEWERS_PER_RUN, RunViewers, VIEWERS_PER_LINK, VIEWERS_PER_RUN } from '../../src/live/run-viewers.js';

describe('RunViewers', () => {
  it(`lets one live link hold ${VIEWERS_PER_LINK} streams: opening another ends its own oldest, so opening the page again always works`, () => {
    const viewers = new RunViewers();
    const first = viewers.join('linkA');
    const second = viewers.join('linkA');
    const third = viewers.join('linkA');
    expect(first.stop.signal.aborted).toBe(true);
    expect([second, third].map((v) => v.stop.signal.aborted)).toEqual([false, false]);
    expect(viewers.size).toBe(VIEWERS_PER_LINK);
  });

  it(`keeps one place of ${VIEWERS_PER_RUN} for the API key: the links together hold at most ${LINK_VIEWERS_PER_RUN}`, () => {
    const viewers = new RunViewers();
    viewers.join('linkA');
    viewers.join('linkA');
    viewers.join('linkB');
    expect(() => viewers.join('linkC')).toThrow(TooManyViewersError);
    const key = viewers.join(null);
    expect(key.stop.signal.aborted).toBe(false);
    expect(viewers.size).toBe(VIEWERS_PER_RUN);
    expect(() => viewers.join(null)).toThrow(TooManyViewersError);
  });

  it('lets a link that holds a stream open again when the run is full, ending its own oldest, never another holder’s', () => {
    const viewers = new RunViewers();
    const a = viewers.join('linkA');
    const b1 = viewers.join('linkB');
    viewers.join('linkB');
    const key = viewers.join(null);
    const again = viewers.join('linkA');
    expect(a.stop.signal.aborted).toBe(true);
    expect([b1, key, again].map((v) => v.stop.signal.aborted)).toEqual([false, false, false]);
    expect(viewers.size).toBe(VIEWERS_PER_RUN);
  });

  it('lets the API key fill every place, since whoever holds it holds the run', () => {
    const viewers = new RunViewers();
    for (let i = 0; i < VIEWERS_PER_RUN; i++) viewers.join(null);
    expect(() => viewers.join('linkA')).toThrow(TooManyViewersError);
    expect(() => viewers.join(null)).toThrow(TooManyViewersError);
  });

  it('frees a place when a viewer leaves, and ends only the links’ streams on revocation', () => {
    const viewers = new RunViewers();
    const link = viewers.join('linkA');
    const key = viewers.join(null);
    viewers.endLinks();
    expect(link.stop.signal.aborted).toBe(true);
    expect(key.stop.signal.aborted).toBe(false);
    viewers.leave(key);
    viewers.leave(link);
    expect(viewers.size).toBe(0);
  });
});
