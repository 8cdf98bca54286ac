import type { ComputerAction, ComputerCallInput, SafetyCheck, ScreenPoint } from '../../agent-tools/computer-actions.js';
import { modifierKey, playwrightChord } from '../../agent-tools/computer-keys.js';
import type { KeyModifier, MouseButton } from '../../sandbox/protocol.js';
import type { ComputerToolVersion } from '../../vocabulary/models.js';

/**
 * OpenAI's computer-use tool on the Responses API (GA `computer`, and `computer_use_preview`): its definition, and
 * its `computer_call` items (one `action`, or a batch of `actions`) in the neutral computer actions.
 */

export type OpenAIComputerVersion = Extract<ComputerToolVersion, 'computer' | 'computer_use_preview'>;

export function isOpenAIComputerVersion(version: ComputerToolVersion | null): version is OpenAIComputerVersion {
  return version === 'computer' || version === 'computer_use_preview';
}

/** The tool as the Responses API defines it: the preview declares the screen; the GA tool learns it from screenshots. */
export function openAIComputerTool(version: OpenAIComputerVersion, display: { width: number; height: number }) {
  return version === 'computer'
    ? { type: 'computer' as const }
    : { type: 'computer_use_preview' as const, display_width: display.width, display_height: display.height, environment: 'browser' as const };
}

/** How long the API's `wait` waits: it names no duration. */
const WAIT_S = 1;

const BUTTONS: Readonly<Record<string, MouseButton>> = { left: 'left', right: 'right', wheel: 'middle', middle: 'middle' };

/** A `computer_call` item's actions and safety checks in the neutral form, or what is wrong with it. */
export function fromOpenAIComputer(item: Record<string, unknown>): ComputerCallInput {
  const raw = Array.isArray(item.actions) ? item.actions : item.action === undefined || item.action === null ? [] : [item.action];
  if (raw.length === 0) return { invalid: 'the computer call carried no action' };
  const actions: ComputerAction[] = [];
  for (const one of raw) {
    if (typeof one !== 'object' || one === null) return { invalid: 'a computer action is an object with a `type`' };
    const parsed = parseAction(one as Record<string, unknown>);
    if (typeof parsed === 'string') return { invalid: parsed };
    actions.push(...parsed);
  }
  const checks = Array.isArray(item.pending_safety_checks) ? (item.pending_safety_checks as Record<string, unknown>[]) : [];
  const safety: SafetyCheck[] = checks.map((c) => ({ code: String(c.code ?? c.id ?? 'unknown'), message: String(c.message ?? '') }));
  return { actions, ...(safety.length === 0 ? {} : { safety_checks: safety }) };
}

function parseAction(a: Record<string, unknown>): ComputerAction[] | string {
  const type = a.type;
  const at = (): ScreenPoint | string => {
    const { x, y } = a;
    return typeof x === 'number' && Number.isFinite(x) && typeof y === 'number' && Number.isFinite(y) ? { x: Math.round(x), y: Math.round(y) } : `${String(type)} needs a point x, y`;
  };
  const held = (): KeyModifier[] | string => {
    const keys = a.keys;
    if (keys === undefined || keys === null) return [];
    if (!Array.isArray(keys)) return `${String(type)}: \`keys\` is a list of keys`;
    const modifiers: KeyModifier[] = [];
    for (const name of keys) {
      const key = typeof name === 'string' ? modifierKey(name) : null;
      if (key === null) return `${String(type)}: only modifier keys can be held during it, not ${JSON.stringify(name)}`;
      if (!modifiers.includes(key)) modifiers.push(key);
    }
    return modifiers;
  };
  switch (type) {
    case 'screenshot':
      return [{ action: 'screenshot' }];
    case 'wait':
      return [{ action: 'wait', seconds: WAIT_S }];
    case 'click':
    case 'double_click': {
      const point = at();
      if (typeof point === 'string') return point;
      const modifiers = held();
      if (typeof modifiers === 'string') return modifiers;
      const button = type === 'double_click' ? 'left' : String(a.button ?? 'left');
      // A mouse's back and forward buttons move the browser's history.
      if (button === 'back' || button === 'forward') return [{ action: 'history', direction: button }];
      const mouse = BUTTONS[button];
      if (mouse === undefined) return `click: \`button\` ${JSON.stringify(button)} is none of left, right, wheel, back, forward`;
      return [{ action: 'click', at: point, button: mouse, count: type === 'double_click' ? 2 : 1, modifiers }];
    }
    case 'move': {
      const point = at();
      return typeof point === 'string' ? point : [{ action: 'move', at: point }];
    }
    case 'drag': {
      const path = a.path;
      if (!Array.isArray(path) || path.length < 2) return 'drag needs a `path` of at least two points';
      const points: ScreenPoint[] = [];
      for (const p of path as Record<string, unknown>[]) {
        if (typeof p?.x !== 'number' || typeof p?.y !== 'number') return 'drag: each point of `path` has x and y';
        points.push({ x: Math.round(p.x), y: Math.round(p.y) });
      }
      const modifiers = held();
      if (typeof modifiers === 'string') return modifiers;
      return [{ action: 'drag', path: points, modifiers }];
    }
    case 'scroll': {
      const point = at();
      if (typeof point === 'string') return point;
      const dx = typeof a.scroll_x === 'number' ? a.scroll_x : 0;
      const dy = typeof a.scroll_y === 'number' ? a.scroll_y : 0;
      const modifiers = held();
      if (typeof modifiers === 'string') return modifiers;
      if (modifiers.length > 0) return 'scroll with keys held is not supported: scroll without `keys`';
      return [{ action: 'scroll', at: point, dx, dy, unit: 'pixels' }];
    }
    case 'type':
      return typeof a.text === 'string' ? [{ action: 'type', text: a.text }] : 'type needs a `text`';
    case 'keypress': {
      const keys = a.keys;
      if (!Array.isArray(keys) || keys.length === 0 || !keys.every((k) => typeof k === 'string')) return 'keypress needs `keys`, the keys pressed together';
      const chord = playwrightChord(keys as string[]);
      return typeof chord === 'string' ? [{ action: 'key', chord }] : `keypress: ${JSON.stringify(chord.unknown)} is no key the browser knows`;
    }
    default:
      return `the computer action ${JSON.stringify(type)} is not supported here`;
  }
}
