/**
 * The computer action space as bench/web-tasks.ts's scripted agent holds it: the engine's own computer and navigate
 * tools (src/engine/tools/computer-tool.ts), called with Anthropic's computer-use actions (converted as the provider
 * converts them), on a sandbox that is the bench's supervisor. The agent sees only what such a model sees: the
 * screenshots each action answers with, and the tools' words. It reads a screenshot with an OCR engine (Tesseract, a
 * Debian package: `apt-get install tesseract-ocr`), which gives the words drawn and where: it clicks a word as a model
 * clicks what it read. What it cannot do that a model could: recognise an icon or a shape that is not text (a trash
 * can, a slider's handle), which leaves those tasks unsolved, said as such.
 */
import { execFileSync, spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { fromAnthropicComputer } from '../../src/engine/providers/anthropic-computer.js';
import { ComputerDisplay } from '../../src/engine/tools/computer-display.js';
import { computerTools } from '../../src/engine/tools/computer-tool.js';
import type { AgentTool, ToolContext } from '../../src/agent-tools/agent-tool.js';
import type { Sandbox } from '../../src/sandbox/driver.js';
import type { SupervisorClient } from '../../src/sandbox/supervisor-client.js';
import type { RunRow } from '../../src/store/runs-table.js';
import { decodePng } from './png.js';
import { Stuck } from './tasks.js';
import type { Answer, BrowserToolHands, Snapshot, Target } from './tools.js';
import { NO_TRACE } from '../../src/tracing/attempt-trace.js';

/** A word Tesseract read on the screen, with its box in screen pixels. */
interface Word {
  text: string;
  line: string;
  left: number;
  top: number;
  width: number;
  height: number;
}

/** Whether Tesseract is installed; the bench skips the computer action space without it, and says so. */
export function ocrAvailable(): boolean {
  try {
    execFileSync('tesseract', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** How much the screenshot is enlarged for OCR, which reads small interface text far better large. */
const OCR_SCALE = 3;

/** A PNG screenshot as a grey PGM image enlarged OCR_SCALE times (Tesseract reads netpbm from stdin). */
function enlargedGrey(png: Buffer): Buffer {
  const { width, height, data } = decodePng(png);
  const [w, h] = [width * OCR_SCALE, height * OCR_SCALE];
  const out = Buffer.alloc(w * h);
  for (let y = 0; y < h; y++) {
    const row = Math.floor(y / OCR_SCALE) * width;
    for (let x = 0; x < w; x++) {
      const i = (row + Math.floor(x / OCR_SCALE)) * 4;
      out[y * w + x] = Math.round(0.299 * data[i]! + 0.587 * data[i + 1]! + 0.114 * data[i + 2]!);
    }
  }
  return Buffer.concat([Buffer.from(`P5\n${w} ${h}\n255\n`, 'latin1'), out]);
}

/**
 * Tesseract's TSV for an image. Asynchronous: a reading takes seconds, and an event loop blocked that long misses the
 * supervisor closing an idle keep-alive connection, which the next request would then be sent on.
 */
function tesseract(image: Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('tesseract', ['stdin', 'stdout', '--psm', '11', 'tsv'], { stdio: ['pipe', 'pipe', 'ignore'] });
    const out: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(Buffer.concat(out).toString('utf8')) : reject(new Error(`tesseract exited with ${code}`))));
    child.stdin.end(image);
  });
}

/** The words of a PNG screenshot, in reading order, with their boxes in the screenshot's pixels. */
async function readWords(png: Buffer): Promise<Word[]> {
  const tsv = await tesseract(enlargedGrey(png));
  const words: Word[] = [];
  for (const row of tsv.split('\n').slice(1)) {
    const cells = row.split('\t');
    if (cells.length < 12 || cells[0] !== '5') continue;
    const text = cells[11]!.trim();
    if (text === '' || Number(cells[10]) < 30) continue;
    const [left, top, width, height] = [6, 7, 8, 9].map((c) => Number(cells[c]) / OCR_SCALE) as [number, number, number, number];
    words.push({ text, line: `${cells[2]}.${cells[3]}.${cells[4]}`, left, top, width, height });
  }
  return words;
}

const norm = (s: string): string => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');

/** Where `phrase` is drawn: the centre of its words, consecutive on one line; null when it is not on the screen. */
function locate(words: readonly Word[], phrase: string): Place | null {
  return locateAll(words, phrase)[0] ?? null;
}

/** Where a phrase is drawn: its centre, its right edge and how many words its line has. */
interface Place {
  x: number;
  y: number;
  right: number;
  lineWords: number;
}

/** Every place `phrase` is drawn, in reading order. */
function locateAll(words: readonly Word[], phrase: string): Place[] {
  const wanted = phrase.split(/\s+/).map(norm).filter((w) => w !== '');
  const found: Place[] = [];
  if (wanted.length === 0) return found;
  for (let i = 0; i < words.length; i++) {
    let j = 0;
    while (j < wanted.length && i + j < words.length && words[i + j]!.line === words[i]!.line && norm(words[i + j]!.text) === wanted[j]) j++;
    if (j === wanted.length) {
      const span = words.slice(i, i + j);
      const left = Math.min(...span.map((w) => w.left));
      const right = Math.max(...span.map((w) => w.left + w.width));
      const top = Math.min(...span.map((w) => w.top));
      const bottom = Math.max(...span.map((w) => w.top + w.height));
      found.push({ x: Math.round((left + right) / 2), y: Math.round((top + bottom) / 2), right: Math.round(right), lineWords: words.filter((w) => w.line === words[i]!.line).length });
    }
  }
  // A control's label or a button is a short line of its own; a heading or a sentence that names it is longer.
  return found.sort((a, b) => a.lineWords - b.lineWords);
}

/** The roles whose element is a box next to its label, which a model clicks rather than the label. */
const FIELDS = new Set(['textbox', 'combobox', 'listbox', 'spinbutton', 'searchbox']);

/**
 * The box right of a label, as one sees it: along the label's middle, the first dark border past the label's end,
 * and a point just inside it; null when no border is near.
 */
function fieldRightOf(shot: { width: number; data: Buffer }, label: Place): { x: number; y: number } | null {
  const grey = (x: number, y: number): number => {
    const i = (y * shot.width + x) * 4;
    return 0.299 * shot.data[i]! + 0.587 * shot.data[i + 1]! + 0.114 * shot.data[i + 2]!;
  };
  for (let x = label.right + 3; x < Math.min(shot.width - 12, label.right + 60); x++) {
    if (grey(x, label.y) < 200) return { x: x + 12, y: label.y };
  }
  return null;
}

/** A point of the screen, as this agent's targets are. */
const pointOf = (target: Target): [number, number] | null => {
  const m = 'selector' in target ? /^point:(\d+),(\d+)$/.exec(target.selector) : null;
  return m === null ? null : [Number(m[1]), Number(m[2])];
};

/** Playwright's key names as xdotool writes them, the names Anthropic's tool takes. */
function xdotool(key: string): string {
  const names: Record<string, string> = { Control: 'ctrl', Shift: 'shift', Alt: 'alt', Meta: 'super', Enter: 'Return', ArrowDown: 'Down', ArrowUp: 'Up', ArrowLeft: 'Left', ArrowRight: 'Right', Backspace: 'BackSpace' };
  return key
    .split('+')
    .map((k) => names[k] ?? (k.length === 1 ? k.toLowerCase() : k))
    .join('+');
}

export class ComputerHands implements BrowserToolHands {
  readonly name = 'computer';
  /** For the computer action space: the size of each screenshot in image tokens, (width x height) / 750. */
  readonly snapshotSizes: number[] = [];
  readonly actionMs = new Map<string, number[]>();
  private readonly display = new ComputerDisplay('1280x800');
  private tools: { computer: AgentTool; navigate: AgentTool } | null = null;
  private words: Word[] = [];
  private lastPng: Buffer | null = null;
  private readonly context: ToolContext;

  constructor(client: SupervisorClient) {
    const sandbox = { reachesHost: true, browser: (request: Parameters<SupervisorClient['browser']>[0]) => client.browser(request) } as unknown as Sandbox;
    const ignore = (): void => undefined;
    this.context = {
      run: { id: 'run_bench' } as RunRow,
      sandbox,
      signal: new AbortController().signal,
      recorder: { lastAction: ignore, toolCall: ignore },
      evidence: { noteBrowser: ignore, keepScreenshot: async () => 'art_bench', collect: async () => null, giveUp: async () => { throw new Error('not used'); } },
      logger: undefined as never,
      secrets: [],
      inputFiles: [],
      timeLimit: { suspend: () => ignore },
      waits: { during: async () => null },
      trace: NO_TRACE,
    };
  }

  private async open(): Promise<{ computer: AgentTool; navigate: AgentTool }> {
    if (this.tools === null) {
      const set = await computerTools({ display: this.display, hold: () => false }).open(this.context.run, this.context.signal);
      const [computer, navigate] = set.tools as [AgentTool, AgentTool];
      this.tools = { computer, navigate };
    }
    return this.tools;
  }

  /** One call of a tool, as the model writes it; the screenshot it answers with is what the agent sees next. */
  private async call(tool: 'computer' | 'navigate', input: Record<string, unknown>): Promise<Answer> {
    const tools = await this.open();
    const used = tools[tool];
    const parsed = used.parse(tool === 'computer' ? (fromAnthropicComputer(input) as Record<string, unknown>) : input);
    if (typeof parsed === 'string') return { ok: false, text: parsed };
    const name = tool === 'computer' ? String(input.action) : 'navigate';
    const started = performance.now();
    const outcome = await used.execute(parsed, this.context, { name: tool, input });
    this.actionMs.set(name, [...(this.actionMs.get(name) ?? []), performance.now() - started]);
    if (outcome.kind === 'finished') return { ok: false, text: 'the run ended' };
    const text = outcome.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n');
    const image = outcome.content.find((b) => b.type === 'image');
    this.lastPng = image === undefined ? null : Buffer.from(image.data, 'base64');
    this.words = [];
    return { ok: !outcome.isError, text };
  }

  /** The words of the latest screenshot. */
  private async read(): Promise<Word[]> {
    if (this.words.length === 0 && this.lastPng !== null) this.words = await readWords(this.lastPng);
    return this.words;
  }

  private async find(phrase: string): Promise<Target | null> {
    if (this.lastPng === null) await this.call('computer', { action: 'screenshot' });
    const at = locate(await this.read(), phrase);
    return at === null ? null : { selector: `point:${at.x},${at.y}` };
  }

  /** A target's point: its own, or where its text is drawn on the latest screen (a task may name a text it knows). */
  private async at(target: Target): Promise<[number, number]> {
    const point = pointOf(target);
    if (point !== null) return point;
    const found = 'text' in target ? await this.find(target.text) : null;
    if (found === null) throw new Stuck(`found no ${JSON.stringify(target)} on the screen`);
    return pointOf(found)!;
  }

  navigate(url: string) {
    return this.call('navigate', { url });
  }

  /**
   * What the agent sees: a screenshot, read. `find` and `withText` find the words drawn (the role is what a model
   * would infer from how it looks, which the words alone do not say: a field is found by its label, which a click
   * focuses); `byHint` finds nothing, as an icon is not text.
   */
  async snapshot(): Promise<Snapshot> {
    await this.call('computer', { action: 'screenshot' });
    const words = await this.read();
    if (this.lastPng !== null) {
      const size = decodePng(this.lastPng);
      this.snapshotSizes.push(Math.round((size.width * size.height) / 750));
    }
    const shot = this.lastPng === null ? null : decodePng(this.lastPng);
    const target = (phrase: string, role = ''): Target | null => {
      const label = locate(words, phrase);
      const at = label !== null && shot !== null && FIELDS.has(role) ? (fieldRightOf(shot, label) ?? label) : label;
      return at === null ? null : { selector: `point:${at.x},${at.y}` };
    };
    return { text: words.map((w) => w.text).join(' '), find: (role, name) => target(name, role), withText: (_role, text) => target(text), byHint: () => null };
  }

  async readText(): Promise<Answer> {
    await this.call('computer', { action: 'screenshot' });
    return { ok: true, text: (await this.read()).map((w) => w.text).join(' ') };
  }

  async screenshot() {
    await this.call('computer', { action: 'screenshot' });
    return this.lastPng === null ? null : decodePng(this.lastPng);
  }

  async click(target: Target, options: { double?: boolean; button?: 'right'; modifiers?: string[] } = {}) {
    const action = options.button === 'right' ? 'right_click' : options.double === true ? 'double_click' : 'left_click';
    const held = (options.modifiers ?? []).map(xdotool).join('+');
    return this.call('computer', { action, coordinate: await this.at(target), ...(held === '' ? {} : { text: held }) });
  }

  clickAt(x: number, y: number) {
    return this.call('computer', { action: 'left_click', coordinate: [x, y] });
  }

  async hover(target: Target) {
    return this.call('computer', { action: 'mouse_move', coordinate: await this.at(target) });
  }

  async type(target: Target, text: string, submit = false): Promise<Answer> {
    const clicked = await this.call('computer', { action: 'left_click', coordinate: await this.at(target) });
    if (!clicked.ok) return clicked;
    await this.call('computer', { action: 'key', text: 'ctrl+a' });
    const typed = await this.call('computer', { action: 'type', text });
    if (!typed.ok || !submit) return typed;
    return this.call('computer', { action: 'key', text: 'Return' });
  }

  /** Opens the control, then clicks each option it shows (Control held after the first), or types it and Return. */
  async select(target: Target, values: string[]): Promise<Answer> {
    const [tx, ty] = await this.at(target);
    let answer = await this.call('computer', { action: 'left_click', coordinate: [tx, ty] });
    // The click's answer names a native select: its drawn popup takes no clicks (docs/api.md), the keyboard chooses.
    const native = /\(on <select[#.>\s]/.test(answer.text);
    for (const [i, value] of values.entries()) {
      if (!answer.ok) return answer;
      if (native) {
        await this.call('computer', { action: 'type', text: value });
        answer = await this.call('computer', { action: 'key', text: 'Return' });
        continue;
      }
      // The option the control shows: the place the text is drawn nearest the control, other than its own label.
      const option = locateAll(await this.read(), value)
        .filter((p) => p.x !== tx || p.y !== ty)
        .sort((a, b) => Math.hypot(a.x - tx, a.y - ty) - Math.hypot(b.x - tx, b.y - ty))[0];
      if (option !== undefined) {
        answer = await this.call('computer', { action: 'left_click', coordinate: [option.x, option.y], ...(i > 0 ? { text: 'ctrl' } : {}) });
      } else {
        await this.call('computer', { action: 'type', text: value });
        answer = await this.call('computer', { action: 'key', text: 'Return' });
      }
    }
    return answer;
  }

  press(key: string) {
    return this.call('computer', { action: 'key', text: xdotool(key) });
  }

  async drag(from: Target, to: Target) {
    return this.call('computer', { action: 'left_click_drag', start_coordinate: await this.at(from), coordinate: await this.at(to) });
  }

  async scrollTo(text: string): Promise<Answer> {
    for (let i = 0; i < 30; i++) {
      if ((await this.find(text)) !== null) return { ok: true, text: `${text} is on the screen` };
      const scrolled = await this.call('computer', { action: 'scroll', coordinate: [640, 400], scroll_direction: 'down', scroll_amount: 5 });
      if (!scrolled.ok) return scrolled;
    }
    return { ok: false, text: `${text} never showed` };
  }

  async scrollIn(area: Target, direction: 'down' | 'up') {
    return this.call('computer', { action: 'scroll', coordinate: await this.at(area), scroll_direction: direction, scroll_amount: 5 });
  }

  async waitFor(text: string): Promise<Answer> {
    for (let i = 0; i < 10; i++) {
      await this.call('computer', { action: 'screenshot' });
      if ((await this.find(text)) !== null) return { ok: true, text: `${text} is on the screen` };
      await this.call('computer', { action: 'wait', duration: 1 });
    }
    return { ok: false, text: `${text} never showed` };
  }

  async dialog(accept: boolean, text?: string): Promise<Answer> {
    if (text !== undefined) await this.call('computer', { action: 'type', text });
    return this.call('computer', { action: 'key', text: accept ? 'Return' : 'Escape' });
  }

  tab(index: number) {
    return this.call('navigate', { tab: index });
  }

  back() {
    return this.call('navigate', { go: 'back' });
  }
}
