import { Static, Text } from 'ink';

export interface FinishedLine {
  key: number;
  text: string;
}

/** Progress lines that will not change any more: written once above the live line. */
export function FinishedLines({ lines }: { lines: FinishedLine[] }) {
  return <Static items={lines}>{(line) => <Text key={line.key}>  {line.text}</Text>}</Static>;
}
