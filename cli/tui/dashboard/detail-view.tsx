import { Box, Text } from 'ink';
import { fit } from './format.js';
import { SOFT_WRAP } from './frame-writer.js';

/** One line of a detail view; a line that `wraps` is shown whole over as many rows as it takes, the others are cut. */
export interface DetailLine {
  text: string;
  color?: string;
  bold?: boolean;
  wraps?: boolean;
  /**
   * A link or command to be copied whole: never indented nor cut, and to the terminal one line that it wraps itself
   * (its rows are filled to the last column and marked `continues`), so that selecting it copies it in one piece.
   */
  copy?: boolean;
  /** This row is continued by the next one as one line of the terminal's (a `copy` line's rows but the last). */
  continues?: boolean;
}

/**
 * The rows the lines take at `width`: a wrapping line is broken between words (inside a word longer than a row),
 * its later rows indented by two, so that a long failure_detail or a message's text can be read to its end.
 */
export function detailRows(lines: readonly DetailLine[], width: number): DetailLine[] {
  const rows: DetailLine[] = [];
  for (const line of lines) {
    if (line.copy && line.text.length > width && width > 0) {
      for (let at = 0; at < line.text.length; at += width) rows.push({ ...line, text: line.text.slice(at, at + width), continues: at + width < line.text.length });
      continue;
    }
    if (!line.wraps || line.text.length <= width || width < 8) {
      rows.push(line);
      continue;
    }
    let rest = line.text;
    let room = width;
    while (rest.length > room) {
      const space = rest.lastIndexOf(' ', room);
      const cut = space > room / 2 ? space : room;
      rows.push({ ...line, text: `${room < width ? '  ' : ''}${rest.slice(0, cut)}` });
      rest = rest.slice(cut).trimStart();
      room = width - 2;
    }
    if (rest !== '') rows.push({ ...line, text: `${room < width ? '  ' : ''}${rest}` });
  }
  return rows;
}

export interface DetailViewProps {
  rows: readonly DetailLine[];
  scroll: number;
  width: number;
  height: number;
}

/** A window of a detail's rows, from `scroll`, each exactly the width. */
export function DetailView({ rows, scroll, width, height }: DetailViewProps) {
  return (
    <Box flexDirection="column" height={height} width={width}>
      {rows.slice(scroll, scroll + height).map((l, i) => (
        <Text key={scroll + i} color={l.color} bold={l.bold ?? false} wrap="truncate">
          {l.copy ? `${l.text}${l.continues ? SOFT_WRAP : ''}` : fit(l.text, width)}
        </Text>
      ))}
    </Box>
  );
}
