import { Box, Text } from 'ink';
import { fit } from './format.js';

export interface TableColumn<T> {
  header: string;
  /** Fixed width; the column without one takes what the others leave. */
  width?: number;
  align?: 'left' | 'right';
  value: (row: T) => string;
  color?: (row: T) => string | undefined;
}

export interface TableProps<T> {
  columns: readonly TableColumn<T>[];
  rows: readonly T[];
  /** Index of the highlighted row in `rows`, or -1. */
  selected: number;
  /** Lines available, the header included. */
  height: number;
  width: number;
  empty: string;
}

/**
 * A table that fits its box exactly: every line is `width` characters (nothing wraps), at most `height` lines, and
 * the selected row always in view. Pure: what it shows depends on its props only.
 */
export function Table<T>({ columns, rows, selected, height, width, empty }: TableProps<T>) {
  const widths = columnWidths(columns, width);
  const visible = Math.max(0, height - 1);
  const offset = selected < visible ? 0 : selected - visible + 1;
  const shown = rows.slice(offset, offset + visible);
  const line = (cells: string[]) => fit(cells.join(' '), width);
  return (
    <Box flexDirection="column" height={height} width={width}>
      <Text bold>{line(columns.map((c, i) => fit(c.header, widths[i]!, c.align)))}</Text>
      {rows.length === 0 ? <Text dimColor>{fit(`  ${empty}`, width)}</Text> : null}
      {shown.map((row, i) => {
        const isSelected = offset + i === selected;
        return (
          <Text key={offset + i} inverse={isSelected} wrap="truncate">
            {columns.map((c, ci) => (
              <Text key={ci} color={isSelected ? undefined : c.color?.(row)}>
                {fit(c.value(row), widths[ci]!, c.align)}
                {ci < columns.length - 1 ? ' ' : ''}
              </Text>
            ))}
            {' '.repeat(Math.max(0, width - widths.reduce((a, b) => a + b, 0) - (columns.length - 1)))}
          </Text>
        );
      })}
    </Box>
  );
}

function columnWidths<T>(columns: readonly TableColumn<T>[], width: number): number[] {
  const fixed = columns.reduce((sum, c) => sum + (c.width ?? 0), 0) + (columns.length - 1);
  const rest = Math.max(4, width - fixed);
  return columns.map((c) => c.width ?? rest);
}
