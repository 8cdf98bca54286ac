import { describe, expect, it } from 'vitest';
import { linkHolderView } from '../../src/live/link-holder-view.js';

const LINK = 'http://127.0.0.1:7700/v1/runs/run_1/live?token=elv_renewed';

function envelope(status: string): Record<string, unknown> {
  return {
    task_id: 'run_1',
    object: 'run',
    status,
    result: { total: 3 },
    evidence: {
      screenshot_url: 'http://127.0.0.1:7700/v1/artifacts/art_1?expires=1&sig=a',
      matched_text: 'Total: 3',
      checked_at: '2026-11-29T00:00:00.000Z',
      recording_url: 'http://127.0.0.1:7700/v1/artifacts/art_2?expires=1&sig=b',
      trace_url: 'http://127.0.0.1:7700/v1/artifacts/art_3?expires=1&sig=c',
    },
    files: [{ name: 'report.pdf', url: 'http://127.0.0.1:7700/v1/runs/run_1/files/report.pdf?expires=1&sig=d' }],
    live_url: 'http://127.0.0.1:7700/v1/runs/run_1/live?token=elv_another_link',
    waiting_for: { request_id: 'hr_1', kind: 'takeover', live_url: 'http://127.0.0.1:7700/v1/runs/run_1/live?token=elv_another_link' },
  };
}

describe('linkHolderView', () => {
  it('takes every signed link to the run’s outputs out of an envelope, and gives the holder its own link renewed', () => {
    const seen = linkHolderView(envelope('running'), LINK) as Record<string, any>;
    expect(JSON.stringify(seen)).not.toMatch(/sig=|artifacts|elv_another_link/);
    expect(seen.evidence).toEqual({ screenshot_url: null, matched_text: 'Total: 3', checked_at: '2026-11-29T00:00:00.000Z', recording_url: null, trace_url: null });
    expect(seen.files).toEqual([]);
    expect(seen.live_url).toBe(LINK);
    expect(seen.waiting_for).toEqual({ request_id: 'hr_1', kind: 'takeover', live_url: LINK });
  });

  it('finds the envelope inside another answer (the live state), and leaves the rest as it is', () => {
    const state = { object: 'live_state', run: envelope('running'), thought: 'Looking.', control: { held: false, since: null, by: null }, viewers: 1 };
    const seen = linkHolderView(state, LINK) as Record<string, any>;
    expect(seen).toMatchObject({ object: 'live_state', thought: 'Looking.', viewers: 1, run: { files: [], live_url: LINK } });
    expect(JSON.stringify(seen)).not.toMatch(/sig=/);
  });

  it('gives no live link in the envelope of a run that is not running', () => {
    const seen = linkHolderView(envelope('succeeded'), LINK) as Record<string, any>;
    expect(seen.live_url).toBeNull();
    expect(seen.waiting_for.live_url).toBeNull();
  });
});
