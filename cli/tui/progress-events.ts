import type { RunEnvelope } from '../api-client.js';

/** What a person wants to see of a run's progress at one poll. */
export interface ProgressSnapshot {
  status: RunEnvelope['status'];
  steps: number;
  lastAction: string | null;
}

export function snapshotOf(envelope: RunEnvelope): ProgressSnapshot {
  return { status: envelope.status, steps: envelope.progress?.steps ?? 0, lastAction: envelope.progress?.last_action ?? null };
}

/**
 * The lines worth keeping between two polls: a status change, and a new latest action. Pure, so the Ink view and
 * the plain-text printer (stdout not a terminal) say the same things.
 */
export function progressEvents(previous: ProgressSnapshot | null, next: ProgressSnapshot): string[] {
  const lines: string[] = [];
  if (previous === null || previous.status !== next.status) lines.push(`status ${next.status}`);
  if (next.lastAction !== null && (previous === null || previous.lastAction !== next.lastAction || previous.steps !== next.steps)) {
    lines.push(`step ${next.steps}: ${next.lastAction}`);
  }
  return lines;
}

/** `running · 3 steps · navigate https://...`: the live line. */
export function progressSummary(snapshot: ProgressSnapshot): string {
  const steps = `${snapshot.steps} step${snapshot.steps === 1 ? '' : 's'}`;
  return [snapshot.status, steps, snapshot.lastAction].filter((p): p is string => p !== null).join(' · ');
}
