/**
 * The dashboard's panes, in tab order, with the key that shows each. A pane is added here, given a component, and
 * listed in the dashboard's `paneBody` switch.
 */
export const PANES = [
  { id: 'runs', title: 'Runs', key: '1' },
  { id: 'jobs', title: 'Jobs', key: '2' },
  { id: 'webhooks', title: 'Webhooks', key: '3' },
  { id: 'connections', title: 'Connections', key: '4' },
  { id: 'email', title: 'Email', key: '5' },
] as const;

export type PaneId = (typeof PANES)[number]['id'];
