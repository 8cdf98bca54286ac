import type { Frame, Locator, Page } from 'playwright-core';
import type { RefElement } from '../../../src/sandbox/protocol.js';
import { elementHint } from './element-hints.js';
import { iframeRefs, namelessRefs, refFrame, snapshotRefs, type AriaJsonNode } from './snapshot-text.js';

const SNAPSHOT_TIMEOUT_MS = 10_000;
const HINT_TIMEOUT_MS = 1_000;
/** Nameless elements described per snapshot: each costs a round trip to the page. */
const MAX_HINTS = 40;

/** A reference the page no longer holds, or never gave; the message says to look again. */
export class StaleReference extends Error {
  constructor(ref: string, why: string) {
    super(`the reference ${ref} is stale: ${why}. Take a new snapshot and use a reference from it`);
    this.name = 'StaleReference';
  }
}

interface FrameMark {
  frame: Frame;
  /** `performance.timeOrigin` of the frame's document when the snapshot was taken: a new document has another. */
  origin: number;
}

/**
 * The references of one tab's latest snapshot, through Playwright's public `ai` snapshot
 * (`page.ariaSnapshotJSON({ mode: 'ai' })`) and `page.getByRef`. Playwright keeps a reference on its element while
 * the element's role and name stay, resolves it only to that element while it is in its document, and numbers
 * references afresh in each new document: so a reference is also checked against the document its frame held when
 * the snapshot gave it, and one from an earlier document, or one this tab's latest snapshot did not give, fails
 * with `StaleReference` rather than act on another element.
 */
export class PageRefs {
  private issued = new Map<string, RefElement>();
  private frames = new Map<string, FrameMark>();
  /**
   * Playwright's frame part of the main frame's references in its current document (`f6` of `f6e12`; none in the
   * first): the snapshot shows them without it (`e12`), shorter, and it is put back to resolve them.
   */
  private mainPrefix = '';

  constructor(private readonly page: Page) {}

  /** Takes the snapshot whose references the next actions use; answers its nodes and the hints of nameless elements. */
  async snapshot(): Promise<{ nodes: AriaJsonNode[]; hints: Map<string, string> }> {
    const main = this.page.mainFrame();
    const before = await timeOrigin(main);
    const nodes = (await this.page.ariaSnapshotJSON({ mode: 'ai', boxes: true, timeout: SNAPSHOT_TIMEOUT_MS })) as AriaJsonNode[];
    const after = await timeOrigin(main);
    const top = snapshotRefs(nodes).find((ref) => !ref.framed);
    this.mainPrefix = top === undefined ? '' : refFrame(top.ref);
    shortenRefs(nodes, this.mainPrefix);
    const refs = snapshotRefs(nodes);
    const frames = new Map<string, FrameMark>();
    // A document that loaded during the snapshot leaves its references with no frame mark: they are all stale.
    if (before === after) frames.set('', { frame: main, origin: after });
    for (const { iframe, frame } of iframeRefs(nodes)) {
      const content = await this.contentFrame(iframe);
      const origin = content === null ? null : await timeOrigin(content).catch(() => null);
      if (content !== null && origin !== null) frames.set(frame, { frame: content, origin });
    }
    this.frames = frames;
    this.issued = new Map(refs.map((ref) => [ref.ref, ref]));
    const nameless = namelessRefs(nodes).slice(0, MAX_HINTS);
    const hints = await Promise.all(nameless.map((ref) => this.byRef(ref).evaluate(elementHint, undefined, { timeout: HINT_TIMEOUT_MS }).catch(() => '')));
    return { nodes, hints: new Map(nameless.map((ref, i) => [ref, hints[i]!])) };
  }

  /** What the latest snapshot showed of `ref`, or null when it did not give it. */
  element(ref: string): RefElement | null {
    return this.issued.get(ref) ?? null;
  }

  /** The element of `ref`; throws `StaleReference` when the page changed under it. */
  async locate(ref: string): Promise<Locator> {
    const element = this.issued.get(ref);
    if (element === undefined) throw new StaleReference(ref, "this tab's latest snapshot did not give it");
    const mark = this.frames.get(refFrame(ref));
    if (mark === undefined || mark.frame.isDetached()) throw new StaleReference(ref, 'its frame is gone');
    const origin = await timeOrigin(mark.frame).catch(() => null);
    if (origin !== mark.origin) throw new StaleReference(ref, 'the page loaded anew since that snapshot');
    const locator = this.byRef(ref);
    if ((await locator.count()) === 0) throw new StaleReference(ref, 'the element is no longer on the page (it changed)');
    return locator;
  }

  /** Playwright's locator of a reference as the snapshot shows it. */
  private byRef(ref: string): Locator {
    return this.page.getByRef(refFrame(ref) === '' ? `${this.mainPrefix}${ref}` : ref);
  }

  private async contentFrame(iframeRef: string): Promise<Frame | null> {
    const handle = await this.byRef(iframeRef).elementHandle({ timeout: HINT_TIMEOUT_MS }).catch(() => null);
    if (handle === null) return null;
    try {
      return await handle.contentFrame();
    } finally {
      await handle.dispose();
    }
  }
}

/** Drops the main frame's part (`prefix`) from its references, in place; an iframe's references keep theirs. */
function shortenRefs(nodes: (AriaJsonNode | string)[], prefix: string): void {
  if (prefix === '') return;
  for (const node of nodes) {
    if (typeof node === 'string') continue;
    if (node.ref?.startsWith(`${prefix}e`) === true) node.ref = node.ref.slice(prefix.length);
    shortenRefs(node.children ?? [], prefix);
  }
}

function timeOrigin(frame: Frame): Promise<number> {
  return frame.evaluate(() => performance.timeOrigin);
}
