import type { RunEnvelope } from '../runs/envelope.js';

/**
 * What a live link's holder is answered (docs/api.md, Live view): every run envelope in the answer (GET
 * /v1/runs/{id}, the live state's `run`, POST /v1/runs/{id}/human) without a signed link to the run's screenshot,
 * recording, trace or files, since a live link grants the live view and not the run's outputs; and with the run's live
 * links (`live_url`, `waiting_for.live_url`) as the holder's own link renewed (`liveUrl`), so that a holder who goes on
 * is still the one link (LiveLinks.renewal).
 */
export function linkHolderView(answer: unknown, liveUrl: string): unknown {
  if (Array.isArray(answer)) return answer.map((item) => linkHolderView(item, liveUrl));
  if (answer === null || typeof answer !== 'object') return answer;
  const record = answer as Record<string, unknown>;
  if (record.object === 'run') return withoutOutputs(answer as RunEnvelope, liveUrl);
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [key, linkHolderView(value, liveUrl)]));
}

function withoutOutputs(run: RunEnvelope, liveUrl: string): RunEnvelope {
  const running = run.status === 'running';
  return {
    ...run,
    evidence: run.evidence && { ...run.evidence, screenshot_url: null, recording_url: null, trace_url: null },
    files: [],
    live_url: running ? liveUrl : null,
    waiting_for: run.waiting_for && { ...run.waiting_for, live_url: running ? liveUrl : null },
  };
}
