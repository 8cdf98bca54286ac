import type { Locator, Page } from 'playwright-core';

const ACTION_TIMEOUT_MS = 5_000;
/** How long a combobox's list may take to show its options after it is opened or typed into (an autocomplete). */
const OPTIONS_TIMEOUT_MS = 3_000;
const LISTED = 25;

/** A choice the page cannot take as asked, in words the agent can act on. */
export class ChoiceRefused extends Error {}

export interface Choice {
  value: string;
  label: string;
}

/**
 * Which of `options` the agent means by `wanted`: its value or label exactly, then its label ignoring case and
 * spaces, then the one label that starts with it or contains it. Answers the index, or why none or several fit.
 */
export function matchOption(options: readonly Choice[], wanted: string): number | string {
  const norm = (text: string): string => text.replace(/\s+/g, ' ').trim().toLowerCase();
  const want = norm(wanted);
  const exact: ((option: Choice) => boolean)[] = [(o) => o.value === wanted, (o) => o.label === wanted, (o) => norm(o.label) === want, (o) => norm(o.value) === want];
  for (const fits of exact) {
    const found = options.findIndex(fits);
    if (found >= 0) return found;
  }
  for (const fits of [(o: Choice) => norm(o.label).startsWith(want), (o: Choice) => norm(o.label).includes(want)]) {
    const found = options.flatMap((option, index) => (fits(option) ? [index] : []));
    if (found.length === 1) return found[0]!;
    if (found.length > 1) return `${JSON.stringify(wanted)} fits several options (${found.slice(0, 5).map((i) => JSON.stringify(options[i]!.label)).join(', ')}): give one whole`;
  }
  return `no option is ${JSON.stringify(wanted)}; the options are ${listed(options)}`;
}

function listed(options: readonly Choice[]): string {
  if (options.length === 0) return 'none';
  const shown = options.slice(0, LISTED).map((o) => JSON.stringify(o.label)).join(', ');
  return options.length > LISTED ? `${shown} and ${options.length - LISTED} more` : shown;
}

interface FieldKind {
  kind: 'select' | 'listbox' | 'radiogroup' | 'combobox' | 'datalist' | 'other';
  multiple: boolean;
  editable: boolean;
  expanded: boolean;
  controls: string | null;
  described: string;
}

/**
 * Chooses `values` in `field`: the options of a native `<select>` (by label or value; several for a `multiple` one),
 * the options of a listbox or the radios of a radio group (clicked), or what a combobox offers once opened and typed
 * into (an autocomplete). Verifies the page took the choice and answers what is chosen; throws `ChoiceRefused` when
 * it cannot be done or did not take.
 */
export async function chooseOptions(page: Page, field: Locator, values: readonly string[]): Promise<string> {
  const kind = await field.evaluate(fieldKind, undefined, { timeout: ACTION_TIMEOUT_MS });
  if (values.length > 1 && !kind.multiple) throw new ChoiceRefused(`${kind.described} takes one option, and ${values.length} were given`);
  switch (kind.kind) {
    case 'select':
      return chooseNative(field, values, kind);
    case 'listbox':
    case 'radiogroup':
      return chooseListed(field.getByRole(kind.kind === 'listbox' ? 'option' : 'radio'), values, kind);
    case 'datalist':
      return fillSuggested(field, values[0] ?? '', kind);
    case 'combobox':
      return chooseInCombobox(page, field, values[0] ?? '', kind);
    case 'other':
      throw new ChoiceRefused(`${kind.described} has no options to choose: click it to open its menu, then click the option, or type into it if it is a field`);
    default: {
      const unreachable: never = kind.kind;
      throw new Error(`unknown field kind ${String(unreachable)}`);
    }
  }
}

async function chooseNative(field: Locator, values: readonly string[], kind: FieldKind): Promise<string> {
  const options = await field.evaluate((el) => Array.from((el as HTMLSelectElement).options).map((o) => ({ value: o.value, label: o.label || o.text })));
  const picked = values.map((wanted) => matchOption(options, wanted));
  const wrong = picked.find((p): p is string => typeof p === 'string');
  if (wrong !== undefined) throw new ChoiceRefused(wrong);
  const indexes = picked as number[];
  await field.selectOption(indexes.map((index) => ({ index })), { timeout: ACTION_TIMEOUT_MS });
  const chosen = await field.evaluate((el) => Array.from((el as HTMLSelectElement).selectedOptions).map((o) => o.label || o.text));
  const wanted = indexes.map((index) => options[index]!.label);
  const missing = wanted.filter((label) => !chosen.includes(label));
  if (missing.length > 0) throw new ChoiceRefused(`${kind.described} did not keep ${missing.map((l) => JSON.stringify(l)).join(', ')}: it shows ${listed(chosen.map((label) => ({ label, value: label })))}`);
  return `selected ${chosen.map((l) => JSON.stringify(l)).join(', ')} in ${kind.described}`;
}

async function chooseListed(items: Locator, values: readonly string[], kind: FieldKind): Promise<string> {
  const options = await labelsOf(items);
  for (const wanted of values) {
    const index = matchOption(options, wanted);
    if (typeof index === 'string') throw new ChoiceRefused(index);
    await items.nth(index).click({ timeout: ACTION_TIMEOUT_MS });
  }
  const chosen = (await eachOf(items, (el) => (el.getAttribute('aria-selected') === 'true' || el.getAttribute('aria-checked') === 'true' || (el as HTMLInputElement).checked === true ? (el.getAttribute('aria-label') ?? el.textContent ?? '').replace(/\s+/g, ' ').trim() : null))).filter(
    (label): label is string => label !== null,
  );
  const wanted = values.map((value) => options[matchOption(options, value) as number]!.label);
  const missing = wanted.filter((label) => !chosen.includes(label));
  if (missing.length > 0) throw new ChoiceRefused(`${kind.described} did not take ${missing.map((l) => JSON.stringify(l)).join(', ')}; chosen now: ${chosen.length === 0 ? 'nothing' : chosen.map((l) => JSON.stringify(l)).join(', ')}`);
  return `selected ${chosen.map((l) => JSON.stringify(l)).join(', ')} in ${kind.described}`;
}

async function chooseInCombobox(page: Page, field: Locator, wanted: string, kind: FieldKind): Promise<string> {
  if (!kind.expanded) await field.click({ timeout: ACTION_TIMEOUT_MS });
  if (kind.editable) await field.fill(wanted, { timeout: ACTION_TIMEOUT_MS });
  const list = kind.controls === null ? page : page.locator(`[id="${kind.controls.replaceAll('"', '\\"')}"]`);
  const items = list.getByRole('option').filter({ visible: true });
  await items.first().waitFor({ state: 'visible', timeout: OPTIONS_TIMEOUT_MS }).catch(() => undefined);
  const options = await labelsOf(items);
  if (options.length === 0) throw new ChoiceRefused(`${kind.described} showed no options${kind.editable ? ` for ${JSON.stringify(wanted)}` : ''}: take a snapshot to see what it offers`);
  const index = matchOption(options, wanted);
  if (typeof index === 'string') throw new ChoiceRefused(index);
  const label = options[index]!.label;
  await items.nth(index).click({ timeout: ACTION_TIMEOUT_MS });
  const shown = await field.evaluate((el) => (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement ? el.value : (el.textContent ?? '')).replace(/\s+/g, ' ').trim());
  if (!shown.toLowerCase().includes(label.toLowerCase()) && !(await optionSelected(items, label))) {
    throw new ChoiceRefused(`clicked the option ${JSON.stringify(label)}, and ${kind.described} shows ${JSON.stringify(shown)}: take a snapshot to see what happened`);
  }
  return `selected ${JSON.stringify(label)} in ${kind.described}`;
}

/** A field with suggestions of a `<datalist>` (the browser's own list, not in the page): takes the value as typed. */
async function fillSuggested(field: Locator, wanted: string, kind: FieldKind): Promise<string> {
  const suggestions = await field.evaluate((el) => Array.from((el as HTMLInputElement).list?.options ?? []).map((o) => ({ value: o.value, label: o.label || o.value })));
  const index = matchOption(suggestions, wanted);
  const value = typeof index === 'number' ? suggestions[index]!.value : wanted;
  await field.fill(value, { timeout: ACTION_TIMEOUT_MS });
  const shown = await field.inputValue();
  if (shown !== value) throw new ChoiceRefused(`${kind.described} holds ${JSON.stringify(shown)} after typing ${JSON.stringify(value)}`);
  return `set ${kind.described} to ${JSON.stringify(value)}${typeof index === 'number' ? '' : ' (not one of its suggestions)'}`;
}

async function optionSelected(items: Locator, label: string): Promise<boolean> {
  const selected = await eachOf(items, (el) => (el.getAttribute('aria-selected') === 'true' ? (el.textContent ?? '').trim() : null)).catch((): (string | null)[] => []);
  return selected.includes(label);
}

async function labelsOf(items: Locator): Promise<Choice[]> {
  const labels = await eachOf(items, (el) => (el.getAttribute('aria-label') ?? (el as HTMLElement).innerText ?? el.textContent ?? '').replace(/\s+/g, ' ').trim());
  return labels.map((label) => ({ label, value: label }));
}

/**
 * `read` of each element the locator finds, one by one: `evaluateAll` finds nothing under a reference of a frame
 * Playwright numbers (`f1e2`, a page after its first navigation), where `count`, `nth` and `evaluate` find the elements.
 */
async function eachOf<T>(items: Locator, read: (el: Element) => T): Promise<T[]> {
  const count = await items.count();
  return Promise.all(Array.from({ length: count }, (_, i) => items.nth(i).evaluate(read, undefined, { timeout: ACTION_TIMEOUT_MS })));
}

/** Runs in the page: what kind of choice `el` offers. */
function fieldKind(el: Element): FieldKind {
  const role = el.getAttribute('role');
  const name = (el.getAttribute('aria-label') ?? (el as HTMLInputElement).name ?? '').trim();
  const described = `the ${role ?? el.tagName.toLowerCase()}${name === '' ? '' : ` "${name.slice(0, 40)}"`}`;
  const editable = el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || (el as HTMLElement).isContentEditable;
  const base = { described, editable, expanded: el.getAttribute('aria-expanded') === 'true', controls: el.getAttribute('aria-controls') ?? el.getAttribute('aria-owns') };
  if (el instanceof HTMLSelectElement) return { ...base, kind: 'select', multiple: el.multiple, editable: false };
  if (role === 'listbox') return { ...base, kind: 'listbox', multiple: el.getAttribute('aria-multiselectable') === 'true' };
  if (role === 'radiogroup') return { ...base, kind: 'radiogroup', multiple: false };
  if (el instanceof HTMLInputElement && el.list !== null && role === null) return { ...base, kind: 'datalist', multiple: false };
  if (role === 'combobox' || el.getAttribute('aria-haspopup') === 'listbox') return { ...base, kind: 'combobox', multiple: false };
  return { ...base, kind: 'other', multiple: false };
}
