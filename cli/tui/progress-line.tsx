import { Text } from 'ink';
import { progressSummary, type ProgressSnapshot } from './progress-events.js';

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

export interface ProgressLineProps {
  runId: string;
  snapshot: ProgressSnapshot | null;
  /** Animation frame counter, advanced by the owner of the state. */
  frame: number;
  elapsedMs: number;
}

/** The live spinner line: status · N steps · last action. */
export function ProgressLine({ runId, snapshot, frame, elapsedMs }: ProgressLineProps) {
  return (
    <Text>
      <Text color="cyan">{FRAMES[frame % FRAMES.length]}</Text> {runId}{' '}
      <Text dimColor>{snapshot ? progressSummary(snapshot) : 'waiting for the first poll'}</Text>
      <Text dimColor> ({Math.floor(elapsedMs / 1000)}s)</Text>
    </Text>
  );
}
