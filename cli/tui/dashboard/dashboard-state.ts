import { EMPTY_DATA, reduceData, staleReads, type DashboardData, type DataAction, type MailDetail } from './dashboard-data.js';
import { connectionMatches } from './connections-pane.js';
import { deliveryMatches } from './deliveries-pane.js';
import { detailLinesOf } from './detail-lines.js';
import { detailRows } from './detail-view.js';
import { jobMatches } from './jobs-pane.js';
import { mailMatches } from './mail-pane.js';
import { PANES, type PaneId } from './panes.js';
import { runMatches } from './runs-pane.js';
import type { RunHumanAnswer } from '../../api.js';
import type { WaitingFor } from '../../../src/runs/waiting-for.js';

/** What a key asks for that the state cannot do by itself: the dashboard carries these out and reports back. */
export type Effect =
  | { kind: 'open'; runId: string }
  /** Reads a run again: an earlier read of it may be older than what the stream has told since. */
  | { kind: 'read-run'; runId: string }
  | { kind: 'open-mail'; ref: MailDetail['ref'] }
  | { kind: 'cancel'; runId: string }
  | { kind: 'answer'; runId: string; body: RunHumanAnswer }
  | { kind: 'rerun'; runId: string }
  | { kind: 'redeliver'; deliveryId: string }
  | { kind: 'quit' };

export type Mode =
  | { kind: 'browse' }
  | { kind: 'filter'; draft: string }
  | { kind: 'confirm'; question: string; effect: Effect }
  /** Answering what a run waits for: the text of an answer as it is typed, or y/n for an approval. */
  | { kind: 'answer'; runId: string; waiting: WaitingFor & { request_id: string }; draft: string };

export interface UiState {
  pane: PaneId;
  /**
   * The highlighted item of each pane: null for the top row, which then follows what arrives (the newest run, as a
   * list watched from its top does in k9s); an item's id once a key moved the highlight off the top, which then stays
   * on that item as others arrive above it (as htop's highlight stays on its process), so that enter, c and r act
   * on what was chosen (issue 21, item 12).
   */
  selection: Record<PaneId, string | null>;
  filters: Record<PaneId, string>;
  mode: Mode;
  /** First line shown of the run detail. */
  scroll: number;
  message: string | null;
  /** Effects asked for and not yet carried out. */
  effects: Effect[];
}

export interface DashboardState {
  data: DashboardData;
  ui: UiState;
}

export const INITIAL_STATE: DashboardState = {
  data: EMPTY_DATA,
  ui: {
    pane: 'runs',
    selection: { runs: null, jobs: null, webhooks: null, connections: null, email: null },
    filters: { runs: '', jobs: '', webhooks: '', connections: '', email: '' },
    mode: { kind: 'browse' },
    scroll: 0,
    message: null,
    effects: [],
  },
};

/** The key facts the dashboard acts on (Ink's `Key`, reduced to what is used). */
export interface KeyPress {
  input: string;
  upArrow?: boolean;
  downArrow?: boolean;
  return?: boolean;
  escape?: boolean;
  tab?: boolean;
  shift?: boolean;
  backspace?: boolean;
  delete?: boolean;
  ctrl?: boolean;
  meta?: boolean;
}

/**
 * The key presses in what one read of the terminal brought: Ink hands over a chunk whole, and keys typed quickly or
 * pasted arrive together ("running\r", "jj"); each character is then a key, a carriage return the enter key.
 */
export function keyPresses(input: string, key: Omit<KeyPress, 'input'>): KeyPress[] {
  if (input.length <= 1 || key.ctrl || key.meta || input.startsWith('\u001B')) return [{ ...key, input }];
  return [...input].map((ch) => (ch === '\r' || ch === '\n' ? { input: '', return: true } : { input: ch }));
}

/** A key, with the size of the pane's body (the detail view scrolls by its rows at that width). */
export type DashboardAction = DataAction | { type: 'key'; key: KeyPress; body: { width: number; height: number } } | { type: 'message'; text: string | null } | { type: 'effects.taken'; count: number };

/**
 * The whole dashboard as one reducer, keys included, so that each key acts on the state it follows (however fast
 * keys come) and what the panes show can be tested without a terminal.
 */
export function reduceDashboard(state: DashboardState, action: DashboardAction): DashboardState {
  switch (action.type) {
    case 'key':
      return selectionShown(onKey(state, action.key, action.body));
    case 'message':
      return { ...state, ui: { ...state.ui, message: action.text } };
    case 'effects.taken':
      return { ...state, ui: { ...state.ui, effects: state.ui.effects.slice(action.count) } };
    default: {
      const again = staleReads(state.data, action).map((runId): Effect => (action.type === 'detail.loaded' ? { kind: 'open', runId } : { kind: 'read-run', runId }));
      const ui = again.length === 0 ? state.ui : { ...state.ui, effects: [...state.ui.effects, ...again] };
      return { data: reduceData(state.data, action), ui: action.type === 'event' && action.event.type === 'profile.signed_out' ? { ...ui, message: signedOutMessage(action.event.data) } : ui };
    }
  }
}

/**
 * The state with the pane's highlight on an item it shows: a filter that hides the highlighted item moves the
 * highlight to the first one shown, which is then what keys act on, also once the filter is cleared.
 */
function selectionShown(state: DashboardState): DashboardState {
  const pane = state.ui.pane;
  const ids = visibleIds(state, pane);
  const selected = state.ui.selection[pane];
  if (ids.length === 0 || selected === null || ids.includes(selected)) return state;
  return { ...state, ui: { ...state.ui, selection: { ...state.ui.selection, [pane]: ids[0]! } } };
}

/** The items of a pane after its filter, as ids (what moving and selecting act on). */
export function visibleIds(state: DashboardState, pane: PaneId): string[] {
  const filter = state.ui.filters[pane];
  switch (pane) {
    case 'runs':
      return state.data.runs.filter((r) => runMatches(r, filter)).map((r) => r.id);
    case 'jobs':
      return (state.data.jobs ?? []).filter((j) => jobMatches(j, filter)).map((j) => j.id);
    case 'webhooks':
      return (state.data.deliveries?.kind === 'list' ? state.data.deliveries.items : []).filter((d) => deliveryMatches(d, filter)).map((d) => d.id);
    case 'connections':
      return (state.data.connections ?? []).filter((c) => connectionMatches(c, filter)).map((c) => c.id);
    case 'email':
      return (state.data.mail ?? []).filter((m) => mailMatches(m, filter)).map((m) => m.id);
    default: {
      const unknown: never = pane;
      throw new Error(`unknown pane ${String(unknown)}`);
    }
  }
}

/** The index of the highlighted item among the pane's visible ones (the top one when none is chosen), or -1. */
export function selectedIndex(state: DashboardState, pane: PaneId): number {
  const ids = visibleIds(state, pane);
  if (ids.length === 0) return -1;
  return Math.max(0, ids.indexOf(state.ui.selection[pane] ?? ''));
}

function onKey(state: DashboardState, key: KeyPress, body: { width: number; height: number }): DashboardState {
  const ui = state.ui;
  const set = (change: Partial<UiState>): DashboardState => ({ ...state, ui: { ...ui, ...change } });
  const ask = (question: string, effect: Effect) => set({ mode: { kind: 'confirm', question, effect } });
  const effect = (e: Effect, change: Partial<UiState> = {}) => set({ ...change, effects: [...ui.effects, e] });
  const mode = ui.mode;

  if (mode.kind === 'filter') {
    if (key.return) return set({ mode: { kind: 'browse' } });
    if (key.escape) return set({ mode: { kind: 'browse' }, filters: { ...ui.filters, [ui.pane]: '' } });
    const draft = key.backspace || key.delete ? mode.draft.slice(0, -1) : key.ctrl || key.meta || key.input === '' ? mode.draft : mode.draft + key.input;
    return set({ mode: { kind: 'filter', draft }, filters: { ...ui.filters, [ui.pane]: draft } });
  }
  if (mode.kind === 'answer') return onAnswerKey(mode, key, set, effect);
  if (mode.kind === 'confirm') {
    if (key.input === 'y') return effect(mode.effect, { mode: { kind: 'browse' }, message: '…' });
    return set({ mode: { kind: 'browse' }, message: 'nothing done' });
  }
  const browsing = { ...state, ui: { ...ui, message: null } };
  if (key.input === 'q') return effect({ kind: 'quit' });

  const detail = state.data.detail;
  if (detail !== null) {
    if (key.escape) return { ui: browsing.ui, data: reduceData(state.data, { type: 'detail.closed' }) };
    if (key.downArrow || key.input === 'j') {
      const last = Math.max(0, detailRows(detailLinesOf(detail, ''), body.width).length - body.height);
      return set({ message: null, scroll: Math.min(ui.scroll + 1, last) });
    }
    if (key.upArrow || key.input === 'k') return set({ message: null, scroll: Math.max(0, ui.scroll - 1) });
    if (detail.kind === 'run' && key.input === 'c') return ask(`cancel ${detail.runId}? y/n`, { kind: 'cancel', runId: detail.runId });
    if (detail.kind === 'run' && key.input === 'a') {
      const waiting = detail.envelope?.waiting_for ?? null;
      if (waiting === null || waiting.request_id === null) return set({ message: `${detail.runId} waits for no person's answer` });
      const request = { request_id: waiting.request_id };
      if (waiting.kind === 'takeover') return ask(`done: "${waiting.question}"? y/n`, { kind: 'answer', runId: detail.runId, body: { ...request, note: 'done (said in the dashboard)' } });
      return set({ message: null, mode: { kind: 'answer', runId: detail.runId, waiting: { ...waiting, request_id: waiting.request_id }, draft: '' } });
    }
    if (detail.kind === 'run' && key.input === 'r') return ask(`start a new run of what ${detail.runId} was asked? y/n`, { kind: 'rerun', runId: detail.runId });
    return browsing;
  }

  const byKey = PANES.find((p) => p.key === key.input);
  if (byKey) return set({ message: null, pane: byKey.id });
  if (key.tab) {
    const at = PANES.findIndex((p) => p.id === ui.pane);
    return set({ message: null, pane: PANES[(at + (key.shift ? PANES.length - 1 : 1)) % PANES.length]!.id });
  }
  const ids = visibleIds(state, ui.pane);
  const index = selectedIndex(state, ui.pane);
  if (key.downArrow || key.input === 'j' || key.upArrow || key.input === 'k') {
    if (index < 0) return browsing;
    const next = Math.min(ids.length - 1, Math.max(0, index + (key.downArrow || key.input === 'j' ? 1 : -1)));
    // Back at the top, the highlight follows the top row again.
    return set({ message: null, selection: { ...ui.selection, [ui.pane]: next === 0 ? null : ids[next]! } });
  }
  if (key.input === '/') return set({ message: null, mode: { kind: 'filter', draft: ui.filters[ui.pane] } });
  if (key.escape) return set({ message: null, filters: { ...ui.filters, [ui.pane]: '' } });
  if (index < 0) return browsing;
  const id = ids[index]!;
  if (ui.pane === 'runs') {
    if (key.return) return { ui: { ...browsing.ui, scroll: 0, effects: [...ui.effects, { kind: 'open', runId: id }] }, data: reduceData(state.data, { type: 'detail.opened', runId: id }) };
    if (key.input === 'c') return ask(`cancel ${id}? y/n`, { kind: 'cancel', runId: id });
    if (key.input === 'r') return ask(`start a new run of what ${id} was asked? y/n`, { kind: 'rerun', runId: id });
  }
  if (ui.pane === 'webhooks' && key.input === 'r') return ask(`send ${id} again? y/n`, { kind: 'redeliver', deliveryId: id });
  if (ui.pane === 'email' && key.return) {
    const item = state.data.mail?.find((m) => m.id === id);
    if (item === undefined) return browsing;
    const ref = { direction: item.direction, id: item.id };
    return { ui: { ...browsing.ui, scroll: 0, effects: [...ui.effects, { kind: 'open-mail', ref }] }, data: reduceData(state.data, { type: 'mail.opened', ref }) };
  }
  return browsing;
}

/** An answer typed (enter sends it, esc leaves), or an approval given with y or n (anything else leaves). */
function onAnswerKey(
  mode: Extract<Mode, { kind: 'answer' }>,
  key: KeyPress,
  set: (change: Partial<UiState>) => DashboardState,
  effect: (e: Effect, change?: Partial<UiState>) => DashboardState,
): DashboardState {
  const send = (body: Omit<RunHumanAnswer, 'request_id'>) => effect({ kind: 'answer', runId: mode.runId, body: { request_id: mode.waiting.request_id, ...body } }, { mode: { kind: 'browse' }, message: '…' });
  if (mode.waiting.kind === 'approve') {
    if (key.input === 'y') return send({ approved: true });
    if (key.input === 'n') return send({ approved: false });
    return set({ mode: { kind: 'browse' }, message: 'nothing done' });
  }
  if (key.escape) return set({ mode: { kind: 'browse' }, message: 'nothing done' });
  if (key.return) return mode.draft.trim() === '' ? set({ message: 'type an answer first, or esc' }) : send({ answer: mode.draft.trim() });
  const draft = key.backspace || key.delete ? mode.draft.slice(0, -1) : key.ctrl || key.meta || key.input === '' ? mode.draft : mode.draft + key.input;
  return set({ mode: { ...mode, draft } });
}

/** A saved login found signed out (profile.signed_out): said on the message line, as it has no pane of its own. */
function signedOutMessage(profile: { name: string; health_detail: string | null }): string {
  // What to know first, the detail last: a narrow terminal cuts the line's end.
  return `profile ${profile.name} is signed out: its next run signs in again, or asks a person${profile.health_detail === null ? '' : ` (${profile.health_detail})`}`;
}
