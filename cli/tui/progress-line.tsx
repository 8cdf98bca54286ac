import { Text } from 'ink';
import { progressSummary, type RunProgress } from '../run-progress.js';

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

export interface ProgressLineProps {
  runId: string;
  progress: RunProgress;
  /** Animation frame counter, advanced by the owner of the state. */
  frame: number;
  elapsedMs: number;
}

/** The live spinner line: status · N steps · cost so far · last action. */
export function ProgressLine({ runId, progress, frame, elapsedMs }: ProgressLineProps) {
  return (
    <Text wrap="truncate-end">
      <Text color="cyan">{FRAMES[frame % FRAMES.length]}</Text> {runId} <Text dimColor>{progressSummary(progress)}</Text>
      <Text dimColor> ({Math.floor(elapsedMs / 1000)}s)</Text>
    </Text>
  );
}
