import type { Locator, Page } from 'playwright-core';
import { uniqueRoleSelector } from './role-selector.js';
import type { BrowserAction, BrowserRequest, ElementTarget, KeyModifier, PageProblem, PointerTarget, RefElement, ScrollDirection, ViewportPoint } from '../../../src/sandbox/protocol.js';
import { elementProblem, failureText, type ElementUse } from './action-failure.js';
import { ChoiceRefused, chooseOptions } from './choose-option.js';
import { dateFieldValue, isDateFieldType } from './date-input.js';
import type { PageRefs } from './element-refs.js';
import { StaleReference } from './element-refs.js';
import type { InputFiles } from './input-files.js';
import { renderSnapshot } from './snapshot-text.js';

export const NAVIGATION_TIMEOUT_MS = 30_000;
export const ACTION_TIMEOUT_MS = 5_000;
const SETTLE_TIMEOUT_MS = 5_000;
export const VIEWPORT = { width: 1280, height: 800 };
/** read_text's page of text; `offset` goes on from where one ended. */
export const READ_TEXT_LIMIT = 20_000;
/** An ARIA slider moved by keys: at most this many presses before it is declared stuck. */
const MAX_SLIDER_STEPS = 400;
/** How far scroll {text} goes looking for a text not yet on the page (lazy lists load as one scrolls). */
const SCROLL_SEARCH_SCREENS = 25;
/** At the page's end, how long scroll {text} waits for it to load more (a feed that loads as one scrolls). */
const GROWTH_WAIT_MS = 1_500;

/** What an action did, before the session describes the page around it. */
export interface Outcome {
  text: string;
  problem?: PageProblem;
  screenshot?: string;
  /** read_text: how much of the text this is, and how to read on. */
  extent?: string;
  /** The main document's status, for actions that load a page. */
  status?: number | null;
  /** type by selector: the role and exact name that find the field and no other element (role-selector.ts), or null. */
  roleSelector?: string | null;
}

/** An action that could not be done, in words the agent can act on; the session answers it as a failed result. */
export class ActionFailed extends Error {}

/** An action refused because it would submit a form before a person approved (`holdSubmit`). */
export class SubmissionHeld extends ActionFailed {
  constructor(what: string) {
    super(`held: ${what} would submit a form, and this run needs a person's approval first: ask with request_human (kind approve), then try again`);
    this.name = 'SubmissionHeld';
  }
}

type PageAction = Exclude<BrowserAction, { action: 'dialog' } | { action: 'tab' }>;

/** A request whose text is typed, with the secrets and TOTP seeds its references name. */
export type TypedRequest = Extract<BrowserRequest, { action: 'type' } | { action: 'type_text' }>;

export interface PageActionsOptions {
  refsOf(page: Page): PageRefs;
  inputs: InputFiles;
  /** The text of a `type` or `type_text`, secrets and TOTP codes put in (browser.ts keeps the codes for masking). */
  typedText(request: TypedRequest): Promise<string>;
}

/**
 * The actions on one tab's page: each finds its element (by reference, selector or text), acts, and checks the
 * page took it; a failure says why in words the agent can act on (action-failure.ts).
 */
export class PageActions {
  constructor(private readonly o: PageActionsOptions) {}

  async act(page: Page, request: BrowserRequest & PageAction): Promise<Outcome> {
    const action = request as PageAction;
    switch (action.action) {
      case 'navigate': {
        const response = await page.goto(action.url, { waitUntil: 'domcontentloaded', timeout: NAVIGATION_TIMEOUT_MS });
        const status = response?.status() ?? null;
        return { text: `navigated to ${page.url()} (HTTP ${status ?? 'unknown'})`, status };
      }
      case 'back':
      case 'forward': {
        const options = { waitUntil: 'domcontentloaded' as const, timeout: NAVIGATION_TIMEOUT_MS };
        const before = page.url();
        const response = action.action === 'back' ? await page.goBack(options) : await page.goForward(options);
        if (response === null && page.url() === before) throw new ActionFailed(`there is no ${action.action === 'back' ? 'earlier' : 'later'} page in this tab's history`);
        return { text: `went ${action.action} to ${page.url()}`, ...(response === null ? {} : { status: response.status() }) };
      }
      case 'reload': {
        const response = await page.reload({ waitUntil: 'domcontentloaded', timeout: NAVIGATION_TIMEOUT_MS });
        return { text: `reloaded ${page.url()}`, status: response?.status() ?? null };
      }
      case 'click':
        return this.click(page, action, request.holdSubmit === true);
      case 'hover': {
        if (isPoint(action)) {
          const on = await this.pointAt(page, action);
          await page.mouse.move(action.x, action.y);
          return { text: `hovering at ${action.x},${action.y}${on}` };
        }
        const { locator, described } = await this.locate(page, action, 'hover');
        await this.attempt(locator, 'point', 'hover', described, () => locator.hover({ timeout: ACTION_TIMEOUT_MS }));
        return { text: `hovering over ${described}` };
      }
      case 'type':
        return this.type(page, request as Extract<BrowserRequest, { action: 'type' }>);
      case 'select': {
        const { locator, described } = await this.locate(page, action, 'select in');
        const chosen = await this.attempt(locator, 'edit', 'select in', described, () => chooseOptions(page, locator, action.values));
        await settle(page);
        return { text: chosen };
      }
      case 'press': {
        if (request.holdSubmit === true && /(^|\+)(Enter|NumpadEnter)$/.test(action.key) && (await focusedSubmits(page))) throw new SubmissionHeld(`pressing ${action.key} here`);
        const held = action.holdSeconds ?? 0;
        await page.keyboard.press(action.key, held > 0 ? { delay: held * 1000 } : {});
        await settle(page);
        return { text: `pressed ${action.key}${held > 0 ? ` (held ${held} s)` : ''}` };
      }
      case 'type_text':
        return this.typeText(page, request as Extract<BrowserRequest, { action: 'type_text' }>);
      case 'mouse_down':
      case 'mouse_up': {
        let where = '';
        if (action.at !== undefined) {
          where = ` at ${action.at.x},${action.at.y}${await this.pointAt(page, action.at)}`;
          await page.mouse.move(action.at.x, action.at.y);
        }
        if (action.action === 'mouse_down') await page.mouse.down();
        else {
          await page.mouse.up();
          await settle(page);
        }
        return { text: `${action.action === 'mouse_down' ? 'pressed' : 'released'} the left mouse button${where}` };
      }
      case 'drag':
        return this.drag(page, action);
      case 'scroll':
        return 'toText' in action ? this.scrollToText(page, action.toText) : this.scroll(page, action.direction, action.amount, action.at);
      case 'wait':
        return this.wait(page, action);
      case 'upload':
        return this.upload(page, action);
      case 'read_text': {
        const whole = await page.evaluate(() => document.body?.innerText ?? '');
        const offset = Math.min(action.offset ?? 0, whole.length);
        const end = Math.min(offset + READ_TEXT_LIMIT, whole.length);
        const text = whole.slice(offset, end);
        if (offset === 0 && end === whole.length) return { text };
        const rest = end < whole.length ? `; read_text {offset: ${end}} reads on` : '';
        return { text, extent: `characters ${offset} to ${end} of ${whole.length}${rest}` };
      }
      case 'snapshot': {
        const { nodes, hints } = await this.o.refsOf(page).snapshot();
        const viewport = page.viewportSize() ?? VIEWPORT;
        return { text: renderSnapshot(nodes, { viewport, hints, focus: action.ref ?? null }) };
      }
      case 'screenshot': {
        const viewport = page.viewportSize() ?? VIEWPORT;
        const size = action.size;
        if (size === undefined || (size.width === viewport.width && size.height === viewport.height)) {
          const png = await page.screenshot({ type: 'png', timeout: NAVIGATION_TIMEOUT_MS });
          return { text: `screenshot of the viewport (${viewport.width}x${viewport.height} CSS pixels: x and y of click, hover and drag are in these)`, screenshot: png.toString('base64') };
        }
        // The viewport scaled by one factor: a size in other proportions would stretch the page.
        if (size.width > viewport.width || Math.abs((size.width * viewport.height) / viewport.width - size.height) > 1) {
          throw new ActionFailed(`a screenshot is the viewport (${viewport.width}x${viewport.height}) or smaller in its proportions, not ${size.width}x${size.height}`);
        }
        return { text: `screenshot of the viewport (${viewport.width}x${viewport.height} CSS pixels), scaled to ${size.width}x${size.height} pixels`, screenshot: await scaledScreenshot(page, viewport, size.width / viewport.width) };
      }
      default: {
        const unreachable: never = action;
        throw new Error(`unknown action ${JSON.stringify(unreachable)}`);
      }
    }
  }

  /** The elements the request names by reference, as their snapshot showed them. */
  referenced(page: Page, request: BrowserRequest): RefElement[] {
    const targets: unknown[] = [request, 'to' in request ? request.to : undefined, 'at' in request ? request.at : undefined];
    const refs = targets.flatMap((t) => (typeof t === 'object' && t !== null && 'ref' in t && typeof t.ref === 'string' ? [t.ref] : []));
    return refs.flatMap((ref) => {
      const element = this.o.refsOf(page).element(ref);
      return element === null ? [] : [element];
    });
  }

  private async click(page: Page, action: Extract<BrowserAction, { action: 'click' }>, hold: boolean): Promise<Outcome> {
    const button = action.button ?? 'left';
    const clickCount = action.clickCount ?? 1;
    const modifiers = action.modifiers ?? [];
    const how = `${clickCount === 2 ? 'double-' : clickCount === 3 ? 'triple-' : ''}clicked${button === 'left' ? '' : ` with the ${button} button`}${modifiers.length === 0 ? '' : ` holding ${modifiers.join('+')}`}`;
    if (isPoint(action)) {
      const on = await this.pointAt(page, action);
      if (hold && (await pointSubmits(page, action))) throw new SubmissionHeld('this click');
      await withModifiers(page, modifiers, () => page.mouse.click(action.x, action.y, { button, clickCount }));
      await settle(page);
      return { text: `${how} at ${action.x},${action.y}${on}` };
    }
    const { locator, described } = await this.locate(page, action, 'click');
    if (hold && (await locator.evaluate(submitsForm, false, { timeout: ACTION_TIMEOUT_MS }))) throw new SubmissionHeld('this click');
    await this.attempt(locator, 'point', 'click', described, () => locator.click({ button, clickCount, modifiers, timeout: ACTION_TIMEOUT_MS }));
    await settle(page);
    return { text: `${how} ${described}` };
  }

  private async type(page: Page, request: Extract<BrowserRequest, { action: 'type' }>): Promise<Outcome> {
    const { locator, described } = await this.locate(page, request, 'type into');
    const secret = Object.keys(request.secrets ?? {}).length > 0 || Object.keys(request.totp ?? {}).length > 0;
    const field = await this.attempt(locator, 'edit', 'type into', described, () => locator.evaluate(fieldOf, undefined, { timeout: ACTION_TIMEOUT_MS }));
    let said: string;
    if (field.kind === 'select' || field.kind === 'combobox-list') {
      said = await this.attempt(locator, 'edit', 'type into', described, () => chooseOptions(page, locator, [request.text]));
    } else if (field.kind === 'date' && !secret) {
      said = await this.setDate(locator, described, field.type, request.text);
    } else if (field.kind === 'range' || field.kind === 'aria-range') {
      said = await this.setRange(page, locator, described, field, request.text);
    } else if (field.kind === 'toggle') {
      throw new ActionFailed(`${described} is a ${field.type}: click it to change it`);
    } else {
      // A field given a secret or a code shows discs, as a password field does, in screenshots, the screencast and
      // the recording's frames; the trace's copies of the value are masked when the recording finishes.
      if (secret) {
        await locator.evaluate((el) => (el as HTMLElement).style.setProperty('-webkit-text-security', 'disc', 'important'), undefined, { timeout: ACTION_TIMEOUT_MS });
      }
      // Secrets and codes go in here, at the last moment; the outcome says where it typed, never what.
      const text = await this.o.typedText(request);
      await this.attempt(locator, 'edit', 'type into', described, () => locator.fill(text, { timeout: ACTION_TIMEOUT_MS }));
      said = await this.checkTyped(locator, described, text, secret);
    }
    // Before a submit, which may leave the page: a recipe finds a field the agent named by selector by its label too.
    const roleSelector = 'selector' in request ? await uniqueRoleSelector(page, locator) : null;
    if (request.submit === true) {
      if (request.holdSubmit === true && (await locator.evaluate(submitsForm, true, { timeout: ACTION_TIMEOUT_MS }))) throw new SubmissionHeld('pressing Enter in this field');
      await locator.press('Enter', { timeout: ACTION_TIMEOUT_MS });
      await settle(page);
      said += ' and submitted';
    }
    return { text: said, roleSelector };
  }

  /**
   * Keys typed into whatever has the focus, as a person types (the computer action space's `type`): a field given a
   * secret or a code shows discs first, and the result says where the keys went, never what they were.
   */
  private async typeText(page: Page, request: Extract<BrowserRequest, { action: 'type_text' }>): Promise<Outcome> {
    const secret = Object.keys(request.secrets ?? {}).length > 0 || Object.keys(request.totp ?? {}).length > 0;
    if (request.holdSubmit === true && /[\r\n]/.test(request.text) && (await focusedSubmits(page))) throw new SubmissionHeld('a line break typed here');
    const focused = await focusedField(page, secret);
    await typeKeys(page, await this.o.typedText(request));
    await settle(page);
    return { text: focused === null ? 'typed, but nothing on the page had the focus: the keys went to the page itself (click the field first)' : `typed into ${focused}` };
  }

  /** What a field holds after `fill`: an action never says it typed when the field did not take the text. */
  private async checkTyped(locator: Locator, described: string, text: string, secret: boolean): Promise<string> {
    const value = await locator.evaluate((el) => (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement ? el.value : (el as HTMLElement).innerText), undefined, { timeout: ACTION_TIMEOUT_MS });
    if (value === text || value.replace(/\s+$/, '') === text.replace(/\s+$/, '')) return `typed into ${described}`;
    if (value === '' && text !== '') throw new ActionFailed(`typed into ${described}, and it stays empty: the page did not take the text (click the field and press keys, or look for the control that sets it)`);
    if (secret) return `typed into ${described}; the page changed what was typed (it holds ${value.length} characters)`;
    return `typed into ${described}; the field shows ${JSON.stringify(value.slice(0, 200))} (the page changed what was typed)`;
  }

  private async setDate(locator: Locator, described: string, type: string, text: string): Promise<string> {
    if (!isDateFieldType(type)) throw new ActionFailed(`${described} is an input of type ${type}`);
    const read = dateFieldValue(type, text);
    if ('error' in read) throw new ActionFailed(`${described} is a ${type} field: ${read.error}`);
    await this.attempt(locator, 'edit', 'type into', described, () => locator.fill(read.value, { timeout: ACTION_TIMEOUT_MS }));
    const value = await locator.inputValue({ timeout: ACTION_TIMEOUT_MS });
    if (value !== read.value) {
      throw new ActionFailed(`${described} did not take ${read.value}${value === '' ? ' and stays empty' : `: it holds ${value}`} (it may be outside its allowed range: check its min and max)`);
    }
    return `set ${described} to ${read.value}${read.reading === null ? '' : ` (${read.reading})`}`;
  }

  /** A slider or spin button to a value: a native range is set; an ARIA one is moved with the keys, as a person would. */
  private async setRange(page: Page, locator: Locator, described: string, field: FieldInfo, text: string): Promise<string> {
    const target = Number(text.trim().replace(/[%,]/g, ''));
    if (!Number.isFinite(target)) throw new ActionFailed(`${described} is a ${field.type} and takes a number, not ${JSON.stringify(text)}`);
    if (field.min !== null && target < field.min) throw new ActionFailed(`${described} goes from ${field.min} to ${field.max ?? '?'}: ${target} is below it`);
    if (field.max !== null && target > field.max) throw new ActionFailed(`${described} goes from ${field.min ?? '?'} to ${field.max}: ${target} is above it`);
    if (field.kind === 'range') {
      await locator.fill(String(target), { timeout: ACTION_TIMEOUT_MS });
      const value = await locator.inputValue();
      return Number(value) === target ? `set ${described} to ${value}` : `set ${described} to ${value}, the nearest step to ${target}`;
    }
    await locator.focus({ timeout: ACTION_TIMEOUT_MS });
    const read = async (): Promise<number | null> => {
      const now = await locator.getAttribute('aria-valuenow', { timeout: ACTION_TIMEOUT_MS });
      return now === null || now === '' ? null : Number(now);
    };
    let value = await read();
    if (value === null) throw new ActionFailed(`${described} does not say its value (aria-valuenow): drag its handle instead (drag with to_x, to_y)`);
    const up = field.type === 'spinbutton' ? 'ArrowUp' : 'ArrowRight';
    const down = field.type === 'spinbutton' ? 'ArrowDown' : 'ArrowLeft';
    for (let steps = 0; value !== target && steps < MAX_SLIDER_STEPS; steps += 1) {
      const key = value < target ? up : down;
      await page.keyboard.press(key);
      const next = await read();
      if (next === null || next === value) throw new ActionFailed(`${described} stays at ${value} when ${key} is pressed: drag its handle instead (drag with to_x, to_y)`);
      // A step that passes the target lands on the nearest value the slider has.
      if ((value < target && next > target) || (value > target && next < target)) {
        value = next;
        break;
      }
      value = next;
    }
    return value === target ? `set ${described} to ${value}` : `set ${described} to ${value}, the nearest step to ${target}`;
  }

  private async drag(page: Page, action: Extract<BrowserAction, { action: 'drag' }>): Promise<Outcome> {
    const from = isPoint(action) ? null : await this.locate(page, action, 'drag');
    const to = isPoint(action.to) ? null : await this.locate(page, action.to, 'drag to');
    const fromSaid = from?.described ?? `${(action as ViewportPoint).x},${(action as ViewportPoint).y}`;
    const toSaid = to?.described ?? `${(action.to as ViewportPoint).x},${(action.to as ViewportPoint).y}`;
    const via = action.via ?? [];
    const modifiers = action.modifiers ?? [];
    if (from !== null && to !== null && via.length === 0 && modifiers.length === 0) {
      await this.attempt(from.locator, 'point', 'drag', fromSaid, () => from.locator.dragTo(to.locator, { steps: 10, timeout: ACTION_TIMEOUT_MS }));
    } else {
      const start = from === null ? (action as ViewportPoint) : await this.centre(from.locator, fromSaid);
      const end = to === null ? (action.to as ViewportPoint) : await this.centre(to.locator, toSaid);
      await withModifiers(page, modifiers, async () => {
        await page.mouse.move(start.x, start.y);
        await page.mouse.down();
        await page.mouse.move(start.x + 5, start.y + 5, { steps: 2 });
        for (const point of via) await page.mouse.move(point.x, point.y, { steps: 5 });
        await page.mouse.move(end.x, end.y, { steps: 10 });
        await page.mouse.up();
      });
    }
    await settle(page);
    const through = via.length === 0 ? '' : ` through ${via.map((p) => `${p.x},${p.y}`).join(' ')}`;
    return { text: `dragged ${fromSaid} to ${toSaid}${through}${modifiers.length === 0 ? '' : ` holding ${modifiers.join('+')}`}` };
  }

  /** The centre of an element in the viewport, scrolled into view first. */
  private async centre(locator: Locator, described: string, action = 'drag'): Promise<ViewportPoint> {
    await this.attempt(locator, 'point', action, described, () => locator.scrollIntoViewIfNeeded({ timeout: ACTION_TIMEOUT_MS }));
    const box = await locator.boundingBox({ timeout: ACTION_TIMEOUT_MS });
    if (box === null) throw new ActionFailed(`${action} ${described} failed: the element is not visible`);
    return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  }

  private async scroll(page: Page, direction: ScrollDirection, amount: number | undefined, at: PointerTarget | undefined): Promise<Outcome> {
    const viewport = page.viewportSize() ?? VIEWPORT;
    const distance = amount ?? (direction === 'up' || direction === 'down' ? viewport.height : viewport.width);
    const delta = { dx: direction === 'left' ? -distance : direction === 'right' ? distance : 0, dy: direction === 'up' ? -distance : direction === 'down' ? distance : 0 };
    let moved: ScrollResult;
    let where = '';
    if (at === undefined) {
      moved = await page.evaluate(scrollArea, { ...delta, x: null, y: null });
    } else if (isPoint(at)) {
      await this.pointAt(page, at);
      moved = await page.evaluate(scrollArea, { ...delta, x: at.x, y: at.y });
      where = ` at ${at.x},${at.y}`;
    } else {
      const { locator, described } = await this.locate(page, at, 'scroll at');
      const centre = await this.centre(locator, described, 'scroll at');
      moved = await page.evaluate(scrollArea, { ...delta, x: centre.x, y: centre.y });
      where = ` at ${described}`;
    }
    if (!moved.moved) return { text: `scrolled ${direction}${where}: ${moved.what} is already at its ${direction === 'up' || direction === 'left' ? 'start' : 'end'} (${moved.position} of ${moved.size} px)` };
    return { text: `scrolled ${moved.what} ${direction}${where}; now at ${moved.position} of ${moved.size} px` };
  }

  private async scrollToText(page: Page, text: string): Promise<Outcome> {
    let screens = 0;
    let stuck = false;
    for (;;) {
      const matches = page.getByText(text);
      if ((await matches.filter({ visible: true }).count()) > 0) {
        await (await byText(page, text)).scrollIntoViewIfNeeded({ timeout: ACTION_TIMEOUT_MS });
        const y = await page.evaluate(() => Math.round(window.scrollY));
        return { text: `scrolled to ${JSON.stringify(text)}${screens === 0 ? '' : ` (it showed after scrolling ${screens} screens down)`}; the page is at y=${y}` };
      }
      if ((await matches.count()) > 0) throw new ActionFailed(`${JSON.stringify(text)} is on the page but hidden (in a closed menu, tab or section): open what holds it first`);
      if (screens >= SCROLL_SEARCH_SCREENS) break;
      const moved = await page.evaluate(scrollArea, { dx: 0, dy: (page.viewportSize() ?? VIEWPORT).height, x: null, y: null });
      // The page's scroll handlers run at the next frames: a list that loads as one scrolls starts loading then.
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
      await page.waitForLoadState('networkidle', { timeout: 1_000 }).catch(() => undefined);
      if (moved.moved) {
        screens += 1;
        stuck = false;
      } else if (stuck || !(await page.evaluate(pageGrows, GROWTH_WAIT_MS))) {
        break;
      } else {
        stuck = true;
      }
    }
    throw new ActionFailed(`${JSON.stringify(text)} is not on the page${screens >= SCROLL_SEARCH_SCREENS ? ` within ${screens} screens down` : ', down to its end'}: read_text or a snapshot shows what is`);
  }

  private async wait(page: Page, action: Extract<BrowserAction, { action: 'wait' }>): Promise<Outcome> {
    const seconds = action.seconds ?? 10;
    if (!('text' in action)) {
      await page.waitForTimeout(seconds * 1000);
      return { text: `waited ${seconds} s` };
    }
    const visible = page.getByText(action.text).filter({ visible: true }).first();
    const gone = action.gone === true;
    try {
      await visible.waitFor({ state: gone ? 'detached' : 'attached', timeout: seconds * 1000 });
    } catch {
      throw new ActionFailed(gone ? `${JSON.stringify(action.text)} is still on the page after ${seconds} s` : `${JSON.stringify(action.text)} did not show within ${seconds} s`);
    }
    return { text: gone ? `${JSON.stringify(action.text)} is gone` : `${JSON.stringify(action.text)} shows` };
  }

  private async upload(page: Page, action: Extract<BrowserAction, { action: 'upload' }>): Promise<Outcome> {
    // Only the run's input files: a path the model wrote could name anything the supervisor can read.
    const paths = await this.o.inputs.paths(action.files);
    const { locator, described } = await this.locate(page, action, 'upload to');
    const isFileInput = await locator.evaluate((el) => el instanceof HTMLInputElement && el.type === 'file', undefined, { timeout: ACTION_TIMEOUT_MS });
    if (isFileInput) {
      await this.attempt(locator, 'point', 'upload to', described, () => locator.setInputFiles(paths, { timeout: ACTION_TIMEOUT_MS }));
    } else {
      // A button that opens the file chooser: the chooser gets the files.
      const chooser = page.waitForEvent('filechooser', { timeout: ACTION_TIMEOUT_MS });
      await this.attempt(locator, 'point', 'upload to', described, () => locator.click({ timeout: ACTION_TIMEOUT_MS }));
      const opened = await chooser.catch(() => null);
      if (opened === null) throw new ActionFailed(`${described} is not a file field, and clicking it opened no file chooser`);
      await opened.setFiles(paths, { timeout: ACTION_TIMEOUT_MS });
    }
    await settle(page);
    return { text: `set ${action.files.length === 0 ? 'no file' : action.files.join(', ')} on ${described}` };
  }

  /** The element a target names, and how results name it; `verb` says what failed when a reference is stale. */
  private async locate(page: Page, target: ElementTarget, verb: string): Promise<{ locator: Locator; described: string }> {
    if ('ref' in target) {
      try {
        const locator = await this.o.refsOf(page).locate(target.ref);
        const element = this.o.refsOf(page).element(target.ref)!;
        return { locator, described: `${target.ref} (${element.role}${element.name === '' ? '' : ` ${JSON.stringify(element.name)}`})` };
      } catch (error) {
        if (error instanceof StaleReference) throw new ActionFailed(`${verb} ${target.ref} failed: ${error.message}`);
        throw error;
      }
    }
    if ('selector' in target) return { locator: page.locator(target.selector).first(), described: target.selector };
    return { locator: await byText(page, target.text), described: JSON.stringify(target.text) };
  }

  /** Runs an element action; on failure, finds why from the element's state (action-failure.ts). */
  private async attempt<T>(locator: Locator, use: ElementUse, action: string, described: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof ActionFailed) throw error;
      if (error instanceof ChoiceRefused) throw new ActionFailed(`${action} ${described} failed: ${error.message}`);
      throw new ActionFailed(failureText(action, described, await elementProblem(locator, use), error));
    }
  }

  /** Checks a point is in the viewport; answers what is there, for the result. */
  private async pointAt(page: Page, point: ViewportPoint): Promise<string> {
    const viewport = page.viewportSize() ?? VIEWPORT;
    if (point.x < 0 || point.y < 0 || point.x >= viewport.width || point.y >= viewport.height) {
      throw new ActionFailed(`${point.x},${point.y} is outside the viewport (${viewport.width}x${viewport.height} CSS pixels, as a screenshot shows it)`);
    }
    const there = await page.evaluate(({ x, y }) => {
      const el = document.elementFromPoint(x, y);
      if (el === null) return '';
      const label = (el.getAttribute('aria-label') ?? el.getAttribute('title') ?? (el as HTMLElement).innerText ?? '').replace(/\s+/g, ' ').trim().slice(0, 40);
      return `<${el.tagName.toLowerCase()}${el.id === '' ? '' : `#${el.id}`}>${label === '' ? '' : ` "${label}"`}`;
    }, point);
    return there === '' ? '' : ` (on ${there})`;
  }
}

type FieldKind = 'text' | 'select' | 'combobox-list' | 'date' | 'range' | 'aria-range' | 'toggle';

interface FieldInfo {
  kind: FieldKind;
  type: string;
  min: number | null;
  max: number | null;
}

/** Runs in the page: what kind of value `el` takes. */
function fieldOf(el: Element): FieldInfo {
  const number = (value: string | null): number | null => (value === null || value === '' || !Number.isFinite(Number(value)) ? null : Number(value));
  const role = el.getAttribute('role');
  if (el instanceof HTMLSelectElement) return { kind: 'select', type: 'select', min: null, max: null };
  if (el instanceof HTMLInputElement) {
    const type = el.type;
    if (['date', 'time', 'datetime-local', 'month', 'week'].includes(type)) return { kind: 'date', type, min: null, max: null };
    if (type === 'range') return { kind: 'range', type: 'slider', min: number(el.min) ?? 0, max: number(el.max) ?? 100 };
    if (type === 'checkbox' || type === 'radio') return { kind: 'toggle', type, min: null, max: null };
    return { kind: 'text', type, min: null, max: null };
  }
  if (role === 'slider' || role === 'spinbutton') return { kind: 'aria-range', type: role, min: number(el.getAttribute('aria-valuemin')), max: number(el.getAttribute('aria-valuemax')) };
  if (role === 'checkbox' || role === 'switch' || role === 'radio') return { kind: 'toggle', type: role, min: null, max: null };
  // A combobox one types into (a search box) takes text; one that only opens a list takes one of its options.
  if (role === 'listbox' || ((role === 'combobox' || el.getAttribute('aria-haspopup') === 'listbox') && !(el as HTMLElement).isContentEditable && !(el instanceof HTMLTextAreaElement))) {
    return { kind: 'combobox-list', type: role ?? 'combobox', min: null, max: null };
  }
  return { kind: 'text', type: el.tagName.toLowerCase(), min: null, max: null };
}

interface ScrollResult {
  moved: boolean;
  what: string;
  position: number;
  size: number;
}

/**
 * Runs in the page: scrolls the area at a point (the page when none is given) by dx, dy. The page that cannot scroll
 * that way hands over to the largest area on screen that can (an app whose page holds a scrolling panel).
 */
function scrollArea(d: { dx: number; dy: number; x: number | null; y: number | null }): ScrollResult {
  const vertical = d.dy !== 0;
  const canScroll = (el: Element): boolean => {
    const style = getComputedStyle(el);
    const overflow = vertical ? style.overflowY : style.overflowX;
    const room = vertical ? el.scrollHeight - el.clientHeight : el.scrollWidth - el.clientWidth;
    const position = vertical ? el.scrollTop : el.scrollLeft;
    const towards = vertical ? d.dy : d.dx;
    const left = towards > 0 ? room - position : position;
    return (el === document.scrollingElement || /(auto|scroll|overlay)/.test(overflow)) && room > 0 && left > 0;
  };
  const describe = (el: Element): string => {
    if (el === document.scrollingElement) return 'the page';
    const label = el.getAttribute('aria-label') ?? el.id;
    return `the ${el.getAttribute('role') ?? el.tagName.toLowerCase()}${label === '' ? '' : ` "${label}"`}`;
  };
  let area: Element | null = null;
  if (d.x !== null && d.y !== null) {
    for (let el = document.elementFromPoint(d.x, d.y); el !== null; el = el.parentElement) {
      if (canScroll(el)) {
        area = el;
        break;
      }
    }
  }
  const page = document.scrollingElement ?? document.documentElement;
  if (area === null && d.x === null) {
    area = canScroll(page)
      ? page
      : (Array.from(document.querySelectorAll('*')).filter((el) => canScroll(el) && el.getBoundingClientRect().height > 100).sort((a, b) => b.clientHeight * b.clientWidth - a.clientHeight * a.clientWidth)[0] ?? null);
  }
  const target = area ?? page;
  const before = vertical ? target.scrollTop : target.scrollLeft;
  target.scrollBy({ left: d.dx, top: d.dy, behavior: 'instant' });
  const after = vertical ? target.scrollTop : target.scrollLeft;
  return { moved: after !== before, what: describe(target), position: Math.round(after), size: Math.round(vertical ? target.scrollHeight : target.scrollWidth) };
}

/**
 * The element a text names, as a person reading the page would take it: one whose whole text it is before one that
 * holds it among more (a heading that mentions a button's label), and a visible one before one hidden in a closed menu.
 */
async function byText(page: Page, text: string): Promise<Locator> {
  const tries = [page.getByText(text, { exact: true }).filter({ visible: true }), page.getByText(text).filter({ visible: true }), page.getByText(text, { exact: true }), page.getByText(text)];
  for (const candidate of tries.slice(0, -1)) if ((await candidate.count()) > 0) return candidate.first();
  return tries.at(-1)!.first();
}

/** Runs in the page: whether the page grows taller within `ms`. */
function pageGrows(ms: number): Promise<boolean> {
  const page = document.scrollingElement ?? document.documentElement;
  const height = page.scrollHeight;
  const start = performance.now();
  return new Promise((resolve) => {
    const check = (): void => {
      if (page.scrollHeight !== height) resolve(true);
      else if (performance.now() - start > ms) resolve(false);
      else requestAnimationFrame(check);
    };
    check();
  });
}

/**
 * The viewport scaled by `scale`, as CDP captures it (Playwright's screenshot takes only its own two scales): the
 * visible part of the page, from where it is scrolled to.
 */
async function scaledScreenshot(page: Page, viewport: { width: number; height: number }, scale: number): Promise<string> {
  const session = await page.context().newCDPSession(page);
  try {
    const { cssVisualViewport } = await session.send('Page.getLayoutMetrics');
    const clip = { x: cssVisualViewport.pageX, y: cssVisualViewport.pageY, width: viewport.width, height: viewport.height, scale };
    const { data } = await session.send('Page.captureScreenshot', { format: 'png', clip, captureBeyondViewport: false });
    return data;
  } finally {
    await session.detach().catch(() => undefined);
  }
}

/** Text typed key by key; a line break is Enter and a tab is Tab, as on a keyboard (keyboard.type inserts them). */
async function typeKeys(page: Page, text: string): Promise<void> {
  for (const part of text.split(/(\r\n|\r|\n|\t)/)) {
    if (part === '') continue;
    if (part === '\t') await page.keyboard.press('Tab');
    else if (/^[\r\n]+$/.test(part)) await page.keyboard.press('Enter');
    else await page.keyboard.type(part);
  }
}

/**
 * How results name the element that has the keyboard focus, in whichever frame or shadow root it is; null when
 * nothing on the page has it. With `mask`, it shows discs from now on, as a password field does.
 */
async function focusedField(page: Page, mask: boolean): Promise<string | null> {
  for (const frame of page.frames()) {
    const said = await frame
      .evaluate((maskIt) => {
        if (!document.hasFocus()) return null;
        let el = document.activeElement;
        while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
        if (el === null || el === document.body || el === document.documentElement || el.tagName === 'IFRAME' || el.tagName === 'FRAME') return null;
        if (maskIt) (el as HTMLElement).style.setProperty('-webkit-text-security', 'disc', 'important');
        const label = (el.getAttribute('aria-label') ?? el.getAttribute('name') ?? el.getAttribute('placeholder') ?? '').replace(/\s+/g, ' ').trim().slice(0, 40);
        return `<${el.tagName.toLowerCase()}${el.id === '' ? '' : `#${el.id}`}>${label === '' ? '' : ` "${label}"`}`;
      }, mask)
      .catch(() => null);
    if (said !== null) return frame === page.mainFrame() ? said : `${said} in a frame`;
  }
  return null;
}

function isPoint(target: PointerTarget): target is ViewportPoint {
  return 'x' in target && 'y' in target;
}

async function withModifiers(page: Page, modifiers: readonly KeyModifier[], work: () => Promise<void>): Promise<void> {
  for (const key of modifiers) await page.keyboard.down(key);
  try {
    await work();
  } finally {
    for (const key of [...modifiers].reverse()) await page.keyboard.up(key);
  }
}

/** Lets a navigation that an action started reach its first paint before the result describes the page. */
export async function settle(page: Page): Promise<void> {
  if (page.isClosed()) return;
  await page.waitForLoadState('domcontentloaded', { timeout: SETTLE_TIMEOUT_MS }).catch(() => undefined);
}

/**
 * Whether activating `el` submits a form: a submit control of a form (a button without a type is one), or, for
 * Enter (`enter`), any single-line field of a form (implicit submission).
 */
function submitsForm(el: Element, enter: boolean): boolean {
  const control = el.closest('button, input');
  if (control === null) return false;
  const { form, type } = control as HTMLButtonElement | HTMLInputElement;
  if (form === null) return false;
  if (type === 'submit' || type === 'image') return true;
  return enter && control.tagName === 'INPUT' && !['button', 'checkbox', 'radio', 'reset', 'file', 'hidden', 'range', 'color'].includes(type);
}

/** Whether a click at the point lands on a form's submit control. */
async function pointSubmits(page: Page, point: ViewportPoint): Promise<boolean> {
  const handle = await page.evaluateHandle(({ x, y }) => document.elementFromPoint(x, y), point);
  try {
    const el = handle.asElement();
    return el === null ? false : await el.evaluate(submitsForm, false);
  } finally {
    await handle.dispose();
  }
}

/** Whether Enter in the focused element submits a form. */
async function focusedSubmits(page: Page): Promise<boolean> {
  const focused = await page.evaluateHandle(() => document.activeElement);
  try {
    const el = focused.asElement();
    return el === null ? false : await el.evaluate(submitsForm, true);
  } finally {
    await focused.dispose();
  }
}
