import type { KeyModifier } from '../sandbox/protocol.js';

/**
 * Key names as the models' computer-use tools write them (Anthropic's are xdotool's keysyms: `Return`, `ctrl+a`,
 * `Page_Down`; OpenAI's are upper case: `CTRL`, `ENTER`, `ARROWDOWN`) in Playwright's, which the browser presses.
 */
const MODIFIERS: Readonly<Record<string, KeyModifier>> = {
  ctrl: 'Control',
  control: 'Control',
  shift: 'Shift',
  alt: 'Alt',
  option: 'Alt',
  super: 'Meta',
  meta: 'Meta',
  cmd: 'Meta',
  command: 'Meta',
  win: 'Meta',
  windows: 'Meta',
};

const KEYS: Readonly<Record<string, string>> = {
  return: 'Enter',
  enter: 'Enter',
  kp_enter: 'Enter',
  backspace: 'Backspace',
  tab: 'Tab',
  escape: 'Escape',
  esc: 'Escape',
  space: 'Space',
  delete: 'Delete',
  del: 'Delete',
  insert: 'Insert',
  home: 'Home',
  end: 'End',
  page_up: 'PageUp',
  pageup: 'PageUp',
  prior: 'PageUp',
  page_down: 'PageDown',
  pagedown: 'PageDown',
  next: 'PageDown',
  up: 'ArrowUp',
  arrowup: 'ArrowUp',
  down: 'ArrowDown',
  arrowdown: 'ArrowDown',
  left: 'ArrowLeft',
  arrowleft: 'ArrowLeft',
  right: 'ArrowRight',
  arrowright: 'ArrowRight',
  caps_lock: 'CapsLock',
  capslock: 'CapsLock',
  minus: '-',
  plus: '+',
  equal: '=',
  comma: ',',
  period: '.',
  slash: '/',
  backslash: '\\',
  semicolon: ';',
  apostrophe: "'",
  grave: '`',
  bracketleft: '[',
  bracketright: ']',
};

/** A modifier key's Playwright name, or null when `name` is no modifier. */
export function modifierKey(name: string): KeyModifier | null {
  return MODIFIERS[name.trim().toLowerCase()] ?? null;
}

/** A key's Playwright name, or null when `name` is none the browser knows. */
function plainKey(name: string): string | null {
  const lower = name.toLowerCase();
  const known = KEYS[lower];
  if (known !== undefined) return known;
  if (/^f([1-9]|1[0-2])$/.test(lower)) return lower.toUpperCase();
  return [...name].length === 1 ? name : null;
}

/**
 * The keys of one chord, pressed together (`['ctrl', 'shift', 't']`, `['CTRL', 'A']`), as Playwright's chord
 * (`Control+Shift+t`); a letter pressed with modifiers is the letter's key, whatever its case. Answers what is wrong
 * when a name is no key.
 */
export function playwrightChord(names: readonly string[]): string | { unknown: string } {
  const modifiers: KeyModifier[] = [];
  const keys: string[] = [];
  for (const raw of names) {
    const name = raw.trim();
    if (name === '') continue;
    const modifier = modifierKey(name);
    if (modifier !== null) {
      if (!modifiers.includes(modifier)) modifiers.push(modifier);
      continue;
    }
    const key = plainKey(name);
    if (key === null) return { unknown: name };
    keys.push(key);
  }
  if (keys.length === 0 && modifiers.length === 0) return { unknown: names.join('+') };
  // A chord of modifiers alone presses the last of them.
  const main = keys.length === 0 ? [modifiers.pop()!] : keys.map((k) => (modifiers.length > 0 && /^[A-Z]$/.test(k) ? k.toLowerCase() : k));
  return [...modifiers, ...main].join('+');
}
