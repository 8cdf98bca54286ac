/**
 * The two browser tools bench/web-tasks.ts compares, as a scripted agent holds them: each action is what a model
 * would write with that tool, and each answer is the text the model would read (src/engine/tools/browser-result.ts),
 * from which the agent takes what it acts on next (a snapshot's references, or the selectors a model would write from
 * a snapshot without them). Neither looks at the page itself.
 */
import { browserResultText } from '../../src/sandbox/browser-result-text.js';
import { parseBrowserInput } from '../../src/engine/tools/browser-tool.js';
import { performance } from 'node:perf_hooks';
import type { BrowserResult } from '../../src/sandbox/protocol.js';
import type { SupervisorClient } from '../../src/sandbox/supervisor-client.js';
import { decodePng } from './png.js';

/** What an action answered, as the model reads it. */
export interface Answer {
  ok: boolean;
  text: string;
}

/** Something the agent found to act on: a reference (the new tool), a selector or a text (what today's tool takes). */
export type Target = { ref: string } | { selector: string } | { text: string };

/** A snapshot as the agent reads it: its text, and finders that read only that text. */
export interface Snapshot {
  text: string;
  /** The element the snapshot shows as `role "name"`. */
  find(role: string, name: string): Target | null;
  /** The element the snapshot shows as `role` with `text` as its content (a list item). */
  withText(role: string, text: string): Target | null;
  /** A nameless element the snapshot describes by `hint` (an icon's class), the `nth` such one. */
  byHint(hint: string, nth?: number): Target | null;
}

export interface BrowserToolHands {
  readonly name: string;
  /** The size of every snapshot the agent read, in characters of the tool's answer. */
  readonly snapshotSizes: number[];
  /** How long each action the supervisor did took, by action, in milliseconds. */
  readonly actionMs: Map<string, number[]>;
  navigate(url: string): Promise<Answer>;
  snapshot(): Promise<Snapshot>;
  readText(): Promise<Answer>;
  /** A screenshot, decoded, for an agent that looks for a colour (a marker on a map). */
  screenshot(): Promise<{ width: number; height: number; data: Buffer } | null>;
  click(target: Target, options?: { double?: boolean; button?: 'right'; modifiers?: string[] }): Promise<Answer>;
  clickAt(x: number, y: number): Promise<Answer>;
  hover(target: Target): Promise<Answer>;
  type(target: Target, text: string, submit?: boolean): Promise<Answer>;
  select(target: Target, values: string[]): Promise<Answer>;
  press(key: string): Promise<Answer>;
  drag(from: Target, to: Target): Promise<Answer>;
  scrollTo(text: string): Promise<Answer>;
  scrollIn(area: Target, direction: 'down' | 'up'): Promise<Answer>;
  waitFor(text: string): Promise<Answer>;
  dialog(accept: boolean, text?: string): Promise<Answer>;
  tab(index: number): Promise<Answer>;
  back(): Promise<Answer>;
}

/** The pause between two of today's agent's reads of a page it waits on: a model's turn is seconds long. */
const MODEL_TURN_MS = 500;

/** Runs `work`, adding how long it took to `into` under `action`. */
async function timed<T>(into: Map<string, number[]>, action: string, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await work();
  } finally {
    into.set(action, [...(into.get(action) ?? []), performance.now() - started]);
  }
}

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The new tool: references from the snapshot, and every action of src/engine/tools/browser-tool.ts. */
export class NewTool implements BrowserToolHands {
  readonly name = 'new';
  readonly snapshotSizes: number[] = [];
  readonly actionMs = new Map<string, number[]>();

  constructor(private readonly client: SupervisorClient) {}

  private async act(input: Record<string, unknown>): Promise<Answer & { result: BrowserResult | null }> {
    const action = parseBrowserInput(input);
    if (typeof action === 'string') return { ok: false, text: action, result: null };
    const result = await timed(this.actionMs, action.action, () => this.client.browser(action));
    return { ok: result.ok, text: browserResultText(result), result };
  }

  private by(target: Target): Record<string, unknown> {
    return { ...target };
  }

  navigate(url: string) {
    return this.act({ action: 'navigate', url });
  }

  async snapshot(): Promise<Snapshot> {
    const { text } = await this.act({ action: 'snapshot' });
    this.snapshotSizes.push(text.length);
    const ref = (pattern: RegExp): Target | null => {
      const found = pattern.exec(text)?.[1];
      return found === undefined ? null : { ref: found };
    };
    return {
      text,
      find: (role, name) => ref(new RegExp(`- ${role} "${escape(name)}"[^\\n]*?\\[ref=([a-z0-9]+)\\]`)),
      withText: (role, content) => ref(new RegExp(`- ${role} [^\\n]*?\\[ref=([a-z0-9]+)\\][^\\n]*: ${escape(content)}$`, 'm')),
      byHint: (hint, nth = 0) => {
        const all = [...text.matchAll(new RegExp(`\\[ref=([a-z0-9]+)\\][^\\n]*\\([^\\n]*${escape(hint)}`, 'g'))];
        const found = all[nth]?.[1];
        return found === undefined ? null : { ref: found };
      },
    };
  }

  readText() {
    return this.act({ action: 'read_text' });
  }

  async screenshot() {
    const { result } = await this.act({ action: 'screenshot' });
    return result?.screenshot == null ? null : decodePng(Buffer.from(result.screenshot, 'base64'));
  }

  click(target: Target, options: { double?: boolean; button?: 'right'; modifiers?: string[] } = {}) {
    return this.act({ action: 'click', ...this.by(target), ...options });
  }

  clickAt(x: number, y: number) {
    return this.act({ action: 'click', x, y });
  }

  hover(target: Target) {
    return this.act({ action: 'hover', ...this.by(target) });
  }

  type(target: Target, text: string, submit = false) {
    return this.act({ action: 'type', ...this.by(target), text, submit });
  }

  select(target: Target, values: string[]) {
    return this.act({ action: 'select', ...this.by(target), values });
  }

  press(key: string) {
    return this.act({ action: 'press', key });
  }

  drag(from: Target, to: Target) {
    if (!('ref' in to)) return this.act({ action: 'drag', ...this.by(from), to_x: -1 });
    return this.act({ action: 'drag', ...this.by(from), to_ref: to.ref });
  }

  scrollTo(text: string) {
    return this.act({ action: 'scroll', text });
  }

  scrollIn(area: Target, direction: 'down' | 'up') {
    return this.act({ action: 'scroll', direction, ...this.by(area) });
  }

  waitFor(text: string) {
    return this.act({ action: 'wait', text, seconds: 10 });
  }

  dialog(accept: boolean, text?: string) {
    return this.act({ action: 'dialog', accept, ...(text === undefined ? {} : { text }) });
  }

  tab(index: number) {
    return this.act({ action: 'tab', index });
  }

  back() {
    return this.act({ action: 'back' });
  }
}

/**
 * Today's tool, as main had it before references (the supervisor of the baseline commit): navigate, click {selector
 * or text}, type {selector}, press, scroll, read_text, snapshot (a plain accessibility tree), screenshot, on one tab.
 * The agent writes the selectors a model would write from that snapshot (`role=button[name="Save"]`), and for what
 * the tool has no action for (hover, drag, dialogs, tabs, a point), it does what a model would try first with the
 * actions there are; it knows no keyboard tricks.
 */
export class TodayTool implements BrowserToolHands {
  readonly name = 'today';
  readonly snapshotSizes: number[] = [];
  readonly actionMs = new Map<string, number[]>();

  constructor(private readonly client: SupervisorClient) {}

  private async act(request: Record<string, unknown>): Promise<Answer & { result: BrowserResult | null }> {
    // The baseline's result has none of the new members: read as main's browser-result.ts read it.
    const result = (await timed(this.actionMs, String(request.action), () => this.client.browser(request as never))) as BrowserResult;
    const text = browserResultText({ ...result, extent: null, tabs: [], dialog: null, elements: [] });
    return { ok: result.ok, text, result };
  }

  private selector(target: Target): Record<string, unknown> {
    if ('ref' in target) throw new Error('today\'s tool has no references');
    return 'selector' in target ? { selector: target.selector } : { text: target.text };
  }

  /** A selector for an action that takes one only (type, upload): text becomes a text selector. */
  private onlySelector(target: Target): string {
    if ('selector' in target) return target.selector;
    if ('text' in target) return `text=${JSON.stringify(target.text)}`;
    throw new Error('today\'s tool has no references');
  }

  navigate(url: string) {
    return this.act({ action: 'navigate', url });
  }

  async snapshot(): Promise<Snapshot> {
    const { text } = await this.act({ action: 'snapshot' });
    this.snapshotSizes.push(text.length);
    return {
      text,
      find: (role, name) => (new RegExp(`- ${role} "${escape(name)}"`).test(text) ? { selector: `role=${role}[name=${JSON.stringify(name)}]` } : null),
      withText: (_role, content) => (text.includes(content) ? { text: content } : null),
      // The plain snapshot leaves nameless controls out: there is nothing to find them by.
      byHint: () => null,
    };
  }

  readText() {
    return this.act({ action: 'read_text' });
  }

  async screenshot() {
    const { result } = await this.act({ action: 'screenshot' });
    return result?.screenshot == null ? null : decodePng(Buffer.from(result.screenshot, 'base64'));
  }

  click(target: Target, options: { double?: boolean; button?: 'right'; modifiers?: string[] } = {}) {
    // No double, right or modified click: a model clicks plainly.
    void options;
    return this.act({ action: 'click', ...this.selector(target) });
  }

  async clickAt() {
    return { ok: false, text: 'no action clicks at a point' };
  }

  async hover() {
    return { ok: false, text: 'no action hovers' };
  }

  type(target: Target, text: string, submit = false) {
    return this.act({ action: 'type', selector: this.onlySelector(target), text, submit });
  }

  async select(target: Target, values: string[]) {
    // What a model tries first: the option by its text (the plain snapshot lists options by name).
    let last: Answer = { ok: false, text: 'no value' };
    for (const value of values) {
      void target;
      last = await this.act({ action: 'click', text: value });
      if (!last.ok) return last;
    }
    return last;
  }

  press(key: string) {
    return this.act({ action: 'press', key });
  }

  async drag() {
    return { ok: false, text: 'no action drags' };
  }

  async scrollTo(text: string) {
    // A screen at a time, reading the page until the text is on it.
    for (let i = 0; i < 12; i++) {
      if ((await this.readText()).text.includes(text)) return { ok: true, text: `${text} is on the page` };
      await this.act({ action: 'scroll', direction: 'down' });
    }
    return { ok: false, text: `${text} not found` };
  }

  async scrollIn() {
    return this.act({ action: 'scroll', direction: 'down' });
  }

  async waitFor(text: string) {
    // No wait action: the model reads the page again on its next turns, a few seconds apart.
    for (let i = 0; i < 10; i++) {
      const read = await this.readText();
      if (read.text.includes(text)) return { ok: true, text: read.text };
      await new Promise((resolve) => setTimeout(resolve, MODEL_TURN_MS));
    }
    return { ok: false, text: `${text} did not show` };
  }

  async dialog() {
    return { ok: false, text: 'no action answers a dialog' };
  }

  async tab() {
    return { ok: false, text: 'one tab only' };
  }

  async back() {
    return { ok: false, text: 'no action goes back' };
  }
}
