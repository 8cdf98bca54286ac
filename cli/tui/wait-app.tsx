import { Box, useApp, useStdout } from 'ink';
import { useEffect, useRef, useState } from 'react';
import type { Run } from '../api.js';
import { advance, NO_PROGRESS, updateLines, type LogLine, type RunProgress } from '../run-progress.js';
import type { RunUpdate } from '../run-updates.js';
import { ProgressLine } from './progress-line.js';

export type WaitOutcome = { envelope: Run } | { error: unknown };

export interface WaitAppProps {
  runId: string;
  /** The run's updates, ending with its envelope. */
  updates: AsyncIterable<RunUpdate>;
  onDone: (outcome: WaitOutcome) => void;
  /** How the user runs the CLI, for the commands the lines name. */
  cliName?: string;
  now?: () => number;
}

/**
 * Owns the waiting state: consumes the run's updates, writes each finished line once above the live line, and exits
 * when the run ends. Finished lines are written as they are (Ink's `write`), not laid out by Ink, which would break a
 * long link or command at the terminal's width with an indent: a link stays one line that the terminal wraps and
 * a copy takes whole.
 */
export function WaitApp({ runId, updates, onDone, cliName = 'errand', now = Date.now }: WaitAppProps) {
  const { exit } = useApp();
  // Held in a ref: the effect that reads the updates must run once, whatever Ink hands out on later renders.
  const write = useRef(useStdout().write);
  const [progress, setProgress] = useState<RunProgress>(NO_PROGRESS);
  const [frame, setFrame] = useState(0);
  const [outcome, setOutcome] = useState<WaitOutcome | null>(null);
  const startedAt = useRef(now());

  useEffect(() => {
    const timer = setInterval(() => setFrame((f) => f + 1), 80);
    return () => clearInterval(timer);
  }, []);

  useEffect(() => {
    let stopped = false;
    void (async () => {
      let last: WaitOutcome | null = null;
      try {
        for await (const update of updates) {
          if (stopped) return;
          setProgress((p) => advance(p, update));
          const lines = updateLines(update, cliName);
          if (lines.length > 0) write.current(lines.map(terminalLines).join(''));
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
  }, [updates, cliName]);

  // Exits after the render that removed the spinner, so the terminal keeps the finished lines.
  useEffect(() => {
    if (outcome === null) return;
    onDone(outcome);
    exit();
  }, [outcome, onDone, exit]);

  return <Box flexDirection="column">{outcome !== null ? null : <ProgressLine runId={runId} progress={progress} frame={frame} elapsedMs={now() - startedAt.current} />}</Box>;
}

/** Words indented under the run; what is to be copied on a line of its own, from the first column. */
function terminalLines(line: LogLine): string {
  return 'text' in line ? `  ${line.text}\n` : `  ${line.label}:\n${line.copy}\n`;
}
