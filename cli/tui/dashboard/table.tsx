import { Box, Text } from 'ink';
import { fit } from './format.js';

export interface TableColumn<T> {
  header: string;
  /** Fixed width; columns without one share what the others leave. */
  width?: number;
  /** The least a column without a fixed width is given (4 by default). */
  min?: number;
  /** A column without a fixed width takes this share of what the others leave (1 by default). */
  weight?: number;
  /**
   * When the table is too narrow for every column, columns with a `drop` rank give way, the lowest rank first; the
   * others are always shown (a run's id must stay whole, to be copied).
   */
  drop?: number;
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
  const shownColumns = columnsThatFit(columns, width);
  const widths = columnWidths(shownColumns, width);
  const visible = Math.max(0, height - 1);
  const offset = selected < visible ? 0 : selected - visible + 1;
  const shown = rows.slice(offset, offset + visible);
  const line = (cells: string[]) => fit(cells.join(' '), width);
  return (
    <Box flexDirection="column" height={height} width={width}>
      <Text bold>{line(shownColumns.map((c, i) => fit(c.header, widths[i]!, c.align)))}</Text>
      {rows.length === 0 ? <Text dimColor>{fit(`  ${empty}`, width)}</Text> : null}
      {shown.map((row, i) => {
        const isSelected = offset + i === selected;
        return (
          <Text key={offset + i} inverse={isSelected} wrap="truncate">
            {shownColumns.map((c, ci) => (
              <Text key={ci} color={isSelected ? undefined : c.color?.(row)}>
                {fit(c.value(row), widths[ci]!, c.align)}
                {ci < shownColumns.length - 1 ? ' ' : ''}
              </Text>
            ))}
            {' '.repeat(Math.max(0, width - widths.reduce((a, b) => a + b, 0) - (shownColumns.length - 1)))}
          </Text>
        );
      })}
    </Box>
  );
}

/** The columns shown at `width`: all of them, or without those that give way first, until the rest fit. */
function columnsThatFit<T>(columns: readonly TableColumn<T>[], width: number): readonly TableColumn<T>[] {
  let shown = columns;
  const needed = (cs: readonly TableColumn<T>[]) => cs.reduce((sum, c) => sum + (c.width ?? c.min ?? 4), 0) + cs.length - 1;
  while (needed(shown) > width) {
    const droppable = shown.filter((c) => c.drop !== undefined);
    if (droppable.length === 0) break;
    const first = droppable.reduce((a, b) => (b.drop! < a.drop! ? b : a));
    shown = shown.filter((c) => c !== first);
  }
  return shown;
}

/** Fixed columns take their width; the others share the rest by their weights, each at least its `min`. */
function columnWidths<T>(columns: readonly TableColumn<T>[], width: number): number[] {
  const flexible = columns.filter((c) => c.width === undefined);
  const rest = width - columns.reduce((sum, c) => sum + (c.width ?? 0), 0) - (columns.length - 1);
  const weights = flexible.reduce((sum, c) => sum + (c.weight ?? 1), 0);
  const shares = flexible.map((c) => Math.floor((rest * (c.weight ?? 1)) / weights));
  // What rounding left goes to the last flexible column.
  if (shares.length > 0) shares[shares.length - 1]! += rest - shares.reduce((a, b) => a + b, 0);
  return columns.map((c) => (c.width !== undefined ? c.width : Math.max(c.min ?? 4, shares[flexible.indexOf(c)]!)));
}
