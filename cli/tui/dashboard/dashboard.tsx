import { Box, Text, useApp, useInput } from 'ink';
import { useCallback, useEffect, useReducer, useRef, useState, type ReactElement } from 'react';
import { errorText } from '../../output.js';
import { followUpOf } from './dashboard-data.js';
import { INITIAL_STATE, keyPresses, reduceDashboard, selectedIndex, type DashboardState, type Effect } from './dashboard-state.js';
import { ConnectionsPane, connectionMatches } from './connections-pane.js';
import { DeliveriesPane, deliveryMatches } from './deliveries-pane.js';
import { detailLinesOf } from './detail-lines.js';
import { DetailView, detailRows } from './detail-view.js';
import { fit } from './format.js';
import { Header } from './header.js';
import { JobsPane, jobMatches } from './jobs-pane.js';
import { MailPane, mailMatches } from './mail-pane.js';
import type { PaneId } from './panes.js';
import { RunsPane, runMatches } from './runs-pane.js';
import type { DashboardSource } from './source.js';
import { StatusBar } from './status-bar.js';
import { useTerminalSize } from './use-terminal-size.js';

export interface DashboardProps {
  source: DashboardSource;
  /** How the user runs the CLI, for the commands the detail view names. */
  cliName: string;
  now?: () => number;
}

/** Lines that are not the pane's: the tabs, the help or message line, the status bar, and one left empty. */
const CHROME_LINES = 4;

const HELP: Record<PaneId | 'run' | 'mail', string> = {
  runs: '↑↓/jk move · enter open · c cancel · r re-run · / filter · tab pane · q quit',
  jobs: '↑↓/jk move · / filter · tab pane · q quit',
  webhooks: '↑↓/jk move · r redeliver · / filter · tab pane · q quit',
  connections: '↑↓/jk move · / filter · tab pane · q quit',
  email: '↑↓/jk move · enter open · / filter · tab pane · q quit',
  run: '↑↓/jk scroll · a answer (a run waiting for a person) · c cancel · r re-run · esc back · q quit',
  mail: '↑↓/jk scroll · esc back · q quit',
};

/**
 * `errand tui`: owns the dashboard's state (one reducer, keys included) and its one live connection, the
 * organisation's event stream; the panes are pure. Reads happen when a pane is shown and when an event says
 * something changed: nothing polls. The frame is one line shorter than the terminal and follows its size.
 *
 * The runs are listed once the stream is connected, never before: the stream starts at the daemon's latest event,
 * so a list read before it could miss a run's end for good (issue 21, item 12). Each read of runs carries the id
 * of the last event applied when it was asked, so that an answer older than the stream's news is read again
 * instead of rolling a row back.
 */
export function Dashboard({ source, cliName, now = Date.now }: DashboardProps) {
  const { exit } = useApp();
  const { columns, rows } = useTerminalSize();
  const [state, dispatch] = useReducer(reduceDashboard, INITIAL_STATE);
  const stateRef = useRef<DashboardState>(state);
  stateRef.current = state;
  /** The id of the last event handed to the reducer: how recent a read asked now is, at least. */
  const lastEvent = useRef(0);
  const [clock, setClock] = useState(now());
  const bodyHeight = Math.max(1, rows - CHROME_LINES);

  const report = useCallback((what: string) => (err: unknown) => dispatch({ type: 'message', text: `${what}: ${errorText(err)}` }), []);
  const loadJobs = useCallback(() => source.listJobs().then((jobs) => dispatch({ type: 'jobs.loaded', jobs }), report('could not list jobs')), [source, report]);
  const loadDeliveries = useCallback(() => source.deliveries().then((deliveries) => dispatch({ type: 'deliveries.loaded', deliveries }), report('could not list deliveries')), [source, report]);
  const loadConnections = useCallback(
    () => source.listConnections().then((connections) => dispatch({ type: 'connections.loaded', connections }), report('could not list connections')),
    [source, report],
  );
  const loadMail = useCallback(() => source.listMail().then((mail) => dispatch({ type: 'mail.loaded', mail }), report('could not list mail')), [source, report]);
  const readRun = useCallback(
    (runId: string) => {
      const asOf = lastEvent.current;
      source.getRun(runId).then((run) => dispatch({ type: 'run.loaded', run, asOf }), () => undefined);
    },
    [source],
  );
  const statusTimer = useRef<NodeJS.Timeout | null>(null);
  const loadStatus = useCallback(() => {
    // Spend moves with every step: read it again at most once a second.
    if (statusTimer.current !== null) return;
    statusTimer.current = setTimeout(() => {
      statusTimer.current = null;
      source.status().then((status) => dispatch({ type: 'status.loaded', status }), () => undefined);
    }, 1000);
  }, [source]);

  useEffect(() => {
    const timer = setInterval(() => setClock(now()), 1000);
    return () => {
      clearInterval(timer);
      if (statusTimer.current !== null) clearTimeout(statusTimer.current);
    };
  }, [now]);

  useEffect(() => {
    source.status().then((status) => dispatch({ type: 'status.loaded', status }), () => undefined);
    const abort = new AbortController();
    let listed = false;
    const onConnection = (connection: 'connected' | 'reconnecting') => {
      dispatch({ type: 'connection', state: connection });
      // A reconnection resumes the stream after its last event: the list is read once, at the first connection.
      if (connection !== 'connected' || listed) return;
      listed = true;
      const asOf = lastEvent.current;
      source.listRuns().then((runs) => dispatch({ type: 'runs.loaded', runs, asOf }), report('could not list runs'));
    };
    void (async () => {
      try {
        for await (const event of source.events(abort.signal, onConnection)) {
          const followUp = followUpOf(stateRef.current.data, event);
          dispatch({ type: 'event', event });
          lastEvent.current = event.id;
          if (followUp === 'run' && event.run_id !== null) readRun(event.run_id);
          else if (followUp === 'deliveries') void loadDeliveries();
          else if (followUp === 'jobs' && stateRef.current.data.jobs !== null) void loadJobs();
          else if (followUp === 'mail') void loadMail();
          else if (followUp === 'status') loadStatus();
        }
      } catch (err) {
        if (!abort.signal.aborted) report('the event stream stopped')(err);
      }
    })();
    return () => abort.abort();
  }, [source, report, loadDeliveries, loadJobs, loadMail, loadStatus, readRun]);

  const pane = state.ui.pane;
  // Read again each time the pane is shown: a job or schedule edited elsewhere announces nothing on the stream.
  useEffect(() => {
    if (pane === 'jobs') void loadJobs();
    if (pane === 'webhooks') void loadDeliveries();
    if (pane === 'connections') void loadConnections();
    if (pane === 'email') void loadMail();
  }, [pane, loadJobs, loadDeliveries, loadConnections, loadMail]);

  const carryOut = useCallback(
    (effect: Effect): void => {
      const done = (text: string) => dispatch({ type: 'message', text });
      switch (effect.kind) {
        case 'open': {
          const asOf = lastEvent.current;
          Promise.all([source.getRun(effect.runId), source.runSteps(effect.runId)]).then(
            ([envelope, steps]) => dispatch({ type: 'detail.loaded', envelope, steps, asOf }),
            report(`could not read ${effect.runId}`),
          );
          return;
        }
        case 'read-run':
          readRun(effect.runId);
          return;
        case 'open-mail':
          source.readMail(effect.ref).then((record) => dispatch({ type: 'mail.read', record }), report(`could not read ${effect.ref.id}`));
          return;
        case 'cancel':
          source.cancelRun(effect.runId).then((e) => done(`cancelled ${e.task_id}`), report('could not cancel'));
          return;
        case 'answer':
          source.answerRun(effect.runId, effect.body).then((e) => done(`answered ${e.task_id}`), report('could not answer'));
          return;
        case 'rerun':
          source.rerun(effect.runId).then((a) => done(`started ${a.task_id} (a re-run of ${effect.runId})`), report('could not re-run'));
          return;
        case 'redeliver':
          source.redeliver(effect.deliveryId).then((d) => {
            done(`queued ${d.id} for another attempt`);
            void loadDeliveries();
          }, report('could not redeliver'));
          return;
        case 'quit':
          exit();
          return;
        default: {
          const unknown: never = effect;
          throw new Error(`unknown effect ${JSON.stringify(unknown)}`);
        }
      }
    },
    [source, report, loadDeliveries, readRun, exit],
  );

  const effects = state.ui.effects;
  useEffect(() => {
    if (effects.length === 0) return;
    dispatch({ type: 'effects.taken', count: effects.length });
    for (const effect of effects) carryOut(effect);
  }, [effects, carryOut]);

  useInput((input, key) => {
    for (const press of keyPresses(input, key)) dispatch({ type: 'key', key: press, body: { width: columns, height: bodyHeight } });
  });

  const { data, ui } = state;
  const selected = selectedIndex(state, pane);
  const paneBody = (): ReactElement => {
    if (data.detail !== null) return <DetailView rows={detailRows(detailLinesOf(data.detail, cliName), columns)} scroll={ui.scroll} width={columns} height={bodyHeight} />;
    switch (pane) {
      case 'runs':
        return <RunsPane runs={data.runs.filter((r) => runMatches(r, ui.filters.runs))} selected={selected} width={columns} height={bodyHeight} now={clock} loaded={data.runsLoaded} />;
      case 'jobs':
        return <JobsPane jobs={data.jobs === null ? null : data.jobs.filter((j) => jobMatches(j, ui.filters.jobs))} selected={selected} width={columns} height={bodyHeight} now={clock} />;
      case 'webhooks':
        return (
          <DeliveriesPane
            deliveries={data.deliveries?.kind === 'list' ? { kind: 'list', items: data.deliveries.items.filter((d) => deliveryMatches(d, ui.filters.webhooks)) } : data.deliveries}
            selected={selected}
            width={columns}
            height={bodyHeight}
            now={clock}
          />
        );
      case 'connections':
        return (
          <ConnectionsPane
            connections={data.connections === null ? null : data.connections.filter((c) => connectionMatches(c, ui.filters.connections))}
            selected={selected}
            width={columns}
            height={bodyHeight}
            now={clock}
          />
        );
      case 'email':
        return <MailPane mail={data.mail === null ? null : data.mail.filter((m) => mailMatches(m, ui.filters.email))} selected={selected} width={columns} height={bodyHeight} now={clock} />;
      default: {
        const unknown: never = pane;
        throw new Error(`unknown pane ${String(unknown)}`);
      }
    }
  };

  const mode = ui.mode;
  const footer =
    mode.kind === 'confirm'
      ? { text: mode.question, color: 'yellow' }
      : mode.kind === 'filter'
        ? { text: `filter: ${mode.draft}▏ (enter keeps it, esc clears it)`, color: 'cyan' }
        : mode.kind === 'answer'
          ? mode.waiting.kind === 'approve'
            ? { text: `approve "${mode.waiting.question}"? y approve · n deny · any other key: nothing`, color: 'yellow' }
            : { text: `answer: ${mode.draft}▏ (enter sends it, esc leaves)`, color: 'cyan' }
        : ui.message !== null
          ? { text: ui.message, color: 'white' }
          : { text: HELP[data.detail === null ? pane : data.detail.kind], color: 'gray' };

  return (
    <Box flexDirection="column" width={columns} height={rows - 1}>
      <Header pane={pane} filter={mode.kind === 'filter' ? mode.draft : ui.filters[pane]} width={columns} />
      <Box height={bodyHeight}>{paneBody()}</Box>
      <Text color={footer.color} wrap="truncate">
        {fit(footer.text, columns)}
      </Text>
      <StatusBar connection={data.connection} status={data.status} width={columns} />
    </Box>
  );
}
