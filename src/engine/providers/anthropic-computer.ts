import type { ComputerAction, ComputerCallInput, ScreenPoint } from '../../agent-tools/computer-actions.js';
import { modifierKey, playwrightChord } from '../../agent-tools/computer-keys.js';
import type { KeyModifier, MouseButton } from '../../sandbox/protocol.js';
import type { ComputerToolVersion } from '../../vocabulary/models.js';

/**
 * Anthropic's computer-use tool (`computer_20251124`, `computer_20250124`): its definition, the beta header each
 * version needs, and its calls (`{action: 'left_click', coordinate: [x, y]}`) in the neutral computer actions.
 */

export type AnthropicComputerVersion = Extract<ComputerToolVersion, 'computer_20251124' | 'computer_20250124'>;

/** The beta each tool version is served under. */
export const COMPUTER_BETAS: Readonly<Record<AnthropicComputerVersion, string>> = {
  computer_20251124: 'computer-use-2025-11-24',
  computer_20250124: 'computer-use-2025-01-24',
};

export function isAnthropicComputerVersion(version: ComputerToolVersion | null): version is AnthropicComputerVersion {
  return version === 'computer_20251124' || version === 'computer_20250124';
}

/** The tool as the Messages API defines it; the API names it `computer`, whatever our spec is called. */
export function anthropicComputerTool(version: AnthropicComputerVersion, display: { width: number; height: number }) {
  return { type: version, name: 'computer' as const, display_width_px: display.width, display_height_px: display.height };
}

const CLICKS: Readonly<Record<string, { button: MouseButton; count: 1 | 2 | 3 }>> = {
  left_click: { button: 'left', count: 1 },
  right_click: { button: 'right', count: 1 },
  middle_click: { button: 'middle', count: 1 },
  double_click: { button: 'left', count: 2 },
  triple_click: { button: 'left', count: 3 },
};

const SCROLLS: Readonly<Record<string, { dx: number; dy: number }>> = {
  up: { dx: 0, dy: -1 },
  down: { dx: 0, dy: 1 },
  left: { dx: -1, dy: 0 },
  right: { dx: 1, dy: 0 },
};

/** A call of the computer tool in the neutral form, or what is wrong with it (which the model reads). */
export function fromAnthropicComputer(input: Record<string, unknown>): ComputerCallInput {
  const parsed = parse(input);
  return typeof parsed === 'string' ? { invalid: parsed } : { actions: parsed };
}

function parse(input: Record<string, unknown>): ComputerAction[] | string {
  const action = input.action;
  if (typeof action !== 'string') return 'the computer call needs an `action`';
  const point = (name: string): ScreenPoint | null | string => {
    const value = input[name];
    if (value === undefined || value === null) return null;
    if (Array.isArray(value) && value.length === 2 && value.every((n) => typeof n === 'number' && Number.isFinite(n))) return { x: Math.round(value[0] as number), y: Math.round(value[1] as number) };
    return `${action}: \`${name}\` is [x, y], two numbers`;
  };
  const needPoint = (name: string): ScreenPoint | string => {
    const p = point(name);
    return p === null ? `${action} needs a \`${name}\` [x, y]` : p;
  };
  const text = typeof input.text === 'string' ? input.text : undefined;
  /** Keys held during a click or drag, as `text` names them ("shift", "ctrl+alt"). */
  const held = (): KeyModifier[] | string => {
    if (text === undefined || text.trim() === '') return [];
    const keys: KeyModifier[] = [];
    for (const name of text.split(/[+\s]+/).filter((n) => n !== '')) {
      const key = modifierKey(name);
      if (key === null) return `${action}: only modifier keys (shift, ctrl, alt, super) can be held during it, not ${JSON.stringify(name)}`;
      if (!keys.includes(key)) keys.push(key);
    }
    return keys;
  };
  const seconds = (): number | string => {
    const d = input.duration;
    return typeof d === 'number' && Number.isFinite(d) && d >= 0 ? d : `${action} needs a \`duration\` in seconds`;
  };
  const click = CLICKS[action];
  if (click !== undefined) {
    const at = point('coordinate');
    if (typeof at === 'string') return at;
    const modifiers = held();
    if (typeof modifiers === 'string') return modifiers;
    return [{ action: 'click', at, button: click.button, count: click.count, modifiers }];
  }
  switch (action) {
    case 'screenshot':
      return [{ action: 'screenshot' }];
    case 'cursor_position':
      return [{ action: 'cursor_position' }];
    case 'mouse_move': {
      const at = needPoint('coordinate');
      return typeof at === 'string' ? at : [{ action: 'move', at }];
    }
    case 'left_mouse_down':
    case 'left_mouse_up': {
      const at = point('coordinate');
      if (typeof at === 'string') return at;
      return [{ action: action === 'left_mouse_down' ? 'mouse_down' : 'mouse_up', at }];
    }
    case 'left_click_drag': {
      const from = needPoint('start_coordinate');
      if (typeof from === 'string') return from;
      const to = needPoint('coordinate');
      if (typeof to === 'string') return to;
      const modifiers = held();
      if (typeof modifiers === 'string') return modifiers;
      return [{ action: 'drag', path: [from, to], modifiers }];
    }
    case 'scroll': {
      const at = point('coordinate');
      if (typeof at === 'string') return at;
      const direction = SCROLLS[String(input.scroll_direction)];
      if (direction === undefined) return 'scroll needs a `scroll_direction`: up, down, left or right';
      const amount = input.scroll_amount ?? 3;
      if (typeof amount !== 'number' || !Number.isFinite(amount) || amount < 0) return 'scroll: `scroll_amount` is a number of wheel clicks';
      if (text !== undefined && text.trim() !== '') return 'scroll with keys held is not supported: scroll without `text`';
      return [{ action: 'scroll', at, dx: direction.dx * amount, dy: direction.dy * amount, unit: 'wheel_clicks' }];
    }
    case 'type':
      return text === undefined ? 'type needs a `text`' : [{ action: 'type', text }];
    case 'key':
    case 'hold_key': {
      if (text === undefined || text.trim() === '') return `${action} needs a \`text\`, the key or chord (xdotool names: Return, ctrl+a)`;
      const hold = action === 'hold_key' ? seconds() : undefined;
      if (typeof hold === 'string') return hold;
      // xdotool presses chords separated by spaces one after another.
      const chords: ComputerAction[] = [];
      for (const chord of text.trim().split(/\s+/)) {
        const keys = playwrightChord(chord.split('+'));
        if (typeof keys !== 'string') return `${action}: ${JSON.stringify(keys.unknown)} is no key the browser knows`;
        chords.push({ action: 'key', chord: keys, ...(hold === undefined ? {} : { holdSeconds: hold }) });
      }
      return chords;
    }
    case 'wait': {
      const d = seconds();
      return typeof d === 'string' ? d : [{ action: 'wait', seconds: d }];
    }
    default:
      return `the computer action ${JSON.stringify(action)} is not supported here`;
  }
}
