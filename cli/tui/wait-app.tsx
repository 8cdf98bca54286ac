import { Box, useApp } from 'ink';
import { useEffect, useRef, useState } from 'react';
import type { RunEnvelope } from '../api-client.js';
import { FinishedLines, type FinishedLine } from './finished-lines.js';
import { ProgressLine } from './progress-line.js';
import { progressEvents, snapshotOf, type ProgressSnapshot } from './progress-events.js';

export type WaitOutcome = { envelope: RunEnvelope } | { error: unknown };

export interface WaitAppProps {
  runId: string;
  /** Each poll's envelope, ending with the terminal one. */
  updates: AsyncIterable<RunEnvelope>;
  onDone: (outcome: WaitOutcome) => void;
  now?: () => number;
}

/** Owns the waiting state: consumes the polls, keeps finished lines and the live line, and exits when the run ends. */
export function WaitApp({ runId, updates, onDone, now = Date.now }: WaitAppProps) {
  const { exit } = useApp();
  const [snapshot, setSnapshot] = useState<ProgressSnapshot | null>(null);
  const [lines, setLines] = useState<FinishedLine[]>([]);
  const [frame, setFrame] = useState(0);
  const [outcome, setOutcome] = useState<WaitOutcome | null>(null);
  const startedAt = useRef(now());

  useEffect(() => {
    const timer = setInterval(() => setFrame((f) => f + 1), 80);
    return () => clearInterval(timer);
  }, []);

  useEffect(() => {
    let stopped = false;
    let previous: ProgressSnapshot | null = null;
    let counter = 0;
    void (async () => {
      let last: WaitOutcome | null = null;
      try {
        for await (const envelope of updates) {
          if (stopped) return;
          const next = snapshotOf(envelope);
          const events = progressEvents(previous, next);
          previous = next;
          setSnapshot(next);
          if (events.length > 0) setLines((old) => [...old, ...events.map((text) => ({ key: counter++, text }))]);
          last = { envelope };
        }
      } catch (error) {
        last = { error };
      }
      if (!stopped) setOutcome(last ?? { error: new Error('the run could not be polled') });
    })();
    return () => {
      stopped = true;
    };
  }, [updates]);

  // Exits after the render that printed the last lines and removed the spinner, so the terminal keeps both.
  useEffect(() => {
    if (outcome === null) return;
    onDone(outcome);
    exit();
  }, [outcome, onDone, exit]);

  return (
    <Box flexDirection="column">
      <FinishedLines lines={lines} />
      {outcome !== null ? null : <ProgressLine runId={runId} snapshot={snapshot} frame={frame} elapsedMs={now() - startedAt.current} />}
    </Box>
  );
}
