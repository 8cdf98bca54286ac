import { Text } from 'ink';
import { fit } from './format.js';
import { PANES, type PaneId } from './panes.js';

/** The first line: the panes as tabs (the current one highlighted) and the filter in force. */
export function Header({ pane, filter, width }: { pane: PaneId; filter: string; width: number }) {
  const tabs = PANES.map((p) => ({ ...p, label: ` ${p.key} ${p.title} ` }));
  const used = 8 + tabs.reduce((n, t) => n + t.label.length + 1, 0);
  const right = filter === '' ? '' : `/${filter}`;
  return (
    <Text wrap="truncate">
      <Text bold> errand </Text>
      {tabs.map((t) => (
        <Text key={t.id}>
          <Text inverse={t.id === pane}>{t.label}</Text>{' '}
        </Text>
      ))}
      <Text color="cyan">{fit(right, Math.max(0, width - used), 'right')}</Text>
    </Text>
  );
}
