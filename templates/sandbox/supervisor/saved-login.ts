import type { BrowserContext, Page } from 'playwright-core';
import type { BrowserState, LoginCheck, LoginCheckResult } from '../../../src/sandbox/protocol.js';
import { NAVIGATION_TIMEOUT_MS, settle } from './page-actions.js';

/** How long a check waits for what shows only when signed in, once its page has loaded. */
const SIGNED_IN_WAIT_MS = 5_000;

/**
 * A saved login in the sandbox's browser (docs/api.md, Profiles), through Playwright's storage state: loaded into
 * the running context (`setStorageState` clears what it held and sets the cookies, and each origin's localStorage and
 * IndexedDB, on pages of its own that never reach the network), and read back from it. A persistent context keeps
 * its profile directory too, but that directory is fresh per sandbox and removed with it: the state is all there is.
 */
export async function loadState(context: BrowserContext, state: BrowserState): Promise<void> {
  await context.setStorageState(state);
}

/** The browser's state now, IndexedDB included (sites keep their tokens there too); never sessionStorage. */
export async function readState(context: BrowserContext): Promise<BrowserState> {
  const state = await context.storageState({ indexedDB: true });
  return {
    cookies: state.cookies,
    origins: state.origins.map((origin) => {
      const databases = (origin as { indexedDB?: unknown[] }).indexedDB;
      return { origin: origin.origin, localStorage: origin.localStorage, ...(databases === undefined || databases.length === 0 ? {} : { indexedDB: databases }) };
    }),
  };
}

/**
 * Loads the check's page in `page` and waits a moment for its text, or an element of its role and name, to show:
 * shown, the login is signed in; not shown (a sign-in form, a redirect to one), signed out. A page that does not load
 * says nothing of the login.
 */
export async function checkSignedIn(page: Page, check: LoginCheck): Promise<LoginCheckResult> {
  try {
    await page.goto(check.url, { waitUntil: 'load', timeout: NAVIGATION_TIMEOUT_MS });
  } catch (error) {
    return { outcome: 'unreachable', url: null, detail: `${check.url} did not load: ${firstLine(error)}` };
  }
  await settle(page);
  const sought = check.text !== undefined ? `the text ${JSON.stringify(check.text)}` : `a ${check.role}${check.name === undefined ? '' : ` named ${JSON.stringify(check.name)}`}`;
  const locator =
    check.text !== undefined
      ? page.getByText(check.text)
      : page.getByRole(check.role as Parameters<Page['getByRole']>[0], check.name === undefined ? {} : { name: check.name });
  try {
    await locator.first().waitFor({ state: 'visible', timeout: SIGNED_IN_WAIT_MS });
    return { outcome: 'signed_in', url: page.url(), detail: `${page.url()} shows ${sought}` };
  } catch {
    return { outcome: 'signed_out', url: page.url(), detail: `${page.url()} does not show ${sought}` };
  }
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
}
