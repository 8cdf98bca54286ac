import { Box, useApp } from 'ink';
import { useEffect, useRef, useState } from 'react';
import type { RunEnvelope } from '../api-client.js';
import { advance, NO_PROGRESS, updateLine, type RunProgress } from '../run-progress.js';
import type { RunUpdate } from '../run-updates.js';
import { FinishedLines, type FinishedLine } from './finished-lines.js';
import { ProgressLine } from './progress-line.js';

export type WaitOutcome = { envelope: RunEnvelope } | { error: unknown };

export interface WaitAppProps {
  runId: string;
  /** The run's updates, ending with its envelope. */
  updates: AsyncIterable<RunUpdate>;
  onDone: (outcome: WaitOutcome) => void;
  now?: () => number;
}

/** Owns the waiting state: consumes the run's updates, keeps finished lines and the live line, and exits when the run ends. */
export function WaitApp({ runId, updates, onDone, now = Date.now }: WaitAppProps) {
  const { exit } = useApp();
  const [progress, setProgress] = useState<RunProgress>(NO_PROGRESS);
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
    let counter = 0;
    void (async () => {
      let last: WaitOutcome | null = null;
      try {
        for await (const update of updates) {
          if (stopped) return;
          setProgress((p) => advance(p, update));
          const line = updateLine(update);
          if (line !== null) setLines((old) => [...old, { key: counter++, text: line }]);
          if (update.kind === 'end') last = { envelope: update.envelope };
        }
      } catch (error) {
        last = { error };
      }
      if (!stopped) setOutcome(last ?? { error: new Error('the run stream closed before the run ended') });
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
      {outcome !== null ? null : <ProgressLine runId={runId} progress={progress} frame={frame} elapsedMs={now() - startedAt.current} />}
    </Box>
  );
}
