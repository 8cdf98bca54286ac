import type { Locator } from 'playwright-core';

const DIAGNOSIS_TIMEOUT_MS = 2_000;

/** What an action needs of its element: to be pointed at (click, hover, drag), or to be edited (type, select). */
export type ElementUse = 'point' | 'edit';

/**
 * Why an element action could not be done, in words the agent can act on: the element is missing, gone, hidden,
 * disabled, read-only or covered by another (which it names), found by looking at the element after the action
 * failed, not by reading Playwright's message. Null when the element looks usable, and the action failed for
 * another reason.
 */
export async function elementProblem(locator: Locator, use: ElementUse): Promise<string | null> {
  const count = await locator.count().catch(() => 0);
  if (count === 0) return 'no element on the page matches it now';
  return locator.first().evaluate(inspectElement, use, { timeout: DIAGNOSIS_TIMEOUT_MS }).catch(() => null);
}

/** The sentence a failed element action answers with. */
export function failureText(action: string, target: string, problem: string | null, error: unknown): string {
  if (problem !== null) return `${action} ${target} failed: ${problem}`;
  const message = (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
  // Playwright's own words, without its method name; a timeout says what did not happen, not only how long it took.
  const plain = message.replace(/^[a-zA-Z.]+: /, '').replace(/^Timeout (\d+)ms exceeded\.?/, (_, ms: string) => `it did not happen within ${Number(ms) / 1000} s`);
  return `${action} ${target} failed: ${plain}`;
}

/** Runs in the page (sent as source): what keeps `el` from being used, or null. */
function inspectElement(el: Element, use: ElementUse): string | null {
  const describe = (node: Element): string => {
    const id = node.id === '' ? '' : `#${node.id}`;
    const classes = Array.from(node.classList).slice(0, 3).map((name) => `.${name}`).join('');
    const label = (node.getAttribute('aria-label') ?? (node as HTMLElement).innerText ?? '').replace(/\s+/g, ' ').trim().slice(0, 60);
    return `<${node.tagName.toLowerCase()}${id}${classes}>${label === '' ? '' : ` "${label}"`}`;
  };
  if (!el.isConnected) return 'the element is no longer on the page (it changed): take a new snapshot';
  const style = getComputedStyle(el);
  const rect = el.getBoundingClientRect();
  if (style.display === 'none' || style.visibility === 'hidden' || style.visibility === 'collapse' || rect.width === 0 || rect.height === 0) {
    return 'the element is not visible (hidden, or of no size): it may show after another step, such as opening its menu';
  }
  if (Number(style.opacity) === 0) return 'the element is transparent (opacity 0): it may be a styled stand-in; act on the visible control that holds it';
  if (el.closest('[inert]') !== null) return 'the element is inert: a dialog or overlay has taken the page; deal with that first';
  const disabled = (el as HTMLButtonElement).disabled === true || el.closest('fieldset:disabled') !== null || el.closest('[aria-disabled="true"]') !== null;
  if (disabled) return 'the element is disabled: the page may enable it once something else is filled in or chosen';
  if (use === 'edit') {
    const field = el as HTMLInputElement;
    const editable = el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement || (el as HTMLElement).isContentEditable;
    if (!editable && el.getAttribute('role') === null) return `the element is not a field (it is ${describe(el)}): type into a textbox, or click it first if it opens one`;
    if (field.readOnly === true || el.getAttribute('aria-readonly') === 'true') {
      return 'the field is read-only: it may be filled by a picker (click it and choose), or by the page from other fields';
    }
  }
  if (rect.bottom < 0 || rect.top > innerHeight || rect.right < 0 || rect.left > innerWidth) el.scrollIntoView({ block: 'center', inline: 'center' });
  const now = el.getBoundingClientRect();
  const x = now.left + now.width / 2;
  const y = now.top + now.height / 2;
  const root = el.getRootNode() as Document | ShadowRoot;
  const hit = root.elementFromPoint(x, y);
  if (hit !== null && hit !== el && !el.contains(hit)) {
    if (style.pointerEvents === 'none') return 'the element does not take the pointer (pointer-events: none)';
    return `the element is covered by ${describe(hit)}: close or move that first (a cookie banner, a dialog, a menu), or press Escape`;
  }
  return null;
}
