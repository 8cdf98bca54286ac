import type { Locator, Page } from 'playwright-core';

/** How long describing an element may take: it is there already (it was just acted on), so this is only a bound. */
const DESCRIBE_TIMEOUT_MS = 1_000;
/** The head of an element's accessibility snapshot: `- textbox "Email"` (what follows, `: <value>`, is never read). */
const SNAPSHOT_HEAD = /^- ([a-z]+) ("(?:[^"\\]|\\.)*")/;

/**
 * A role selector (`role=textbox[name="Email"s]`: role, and the exact accessible name) that finds `element` and no other
 * element of the page, or null when the element has no accessible name or another element has the same. A recipe
 * tries it before the agent's own selector, as it does for a click, so that a field whose id changed is still found
 * by its label. Only the snapshot's role and name are read: after a fill, the rest holds the value typed.
 */
export async function uniqueRoleSelector(page: Page, element: Locator): Promise<string | null> {
  try {
    const head = SNAPSHOT_HEAD.exec(await element.ariaSnapshot({ timeout: DESCRIBE_TIMEOUT_MS }));
    if (head === null) return null;
    const name = JSON.parse(head[2]!) as string;
    if (name.trim() === '') return null;
    const selector = `role=${head[1]!}[name=${JSON.stringify(name)}s]`;
    const found = page.locator(selector);
    if ((await found.count()) !== 1) return null;
    const [a, b] = await Promise.all([found.elementHandle({ timeout: DESCRIBE_TIMEOUT_MS }), element.elementHandle({ timeout: DESCRIBE_TIMEOUT_MS })]);
    const same = a !== null && b !== null && (await page.evaluate(([x, y]) => x === y, [a, b] as const));
    await Promise.all([a?.dispose(), b?.dispose()]);
    return same ? selector : null;
  } catch {
    // A name the snapshot escapes otherwise than JSON, a page that navigated meanwhile: the recipe keeps the selector.
    return null;
  }
}
