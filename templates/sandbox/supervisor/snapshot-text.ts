import type { RefElement } from '../../../src/sandbox/protocol.js';

/**
 * One node of Playwright's snapshot in its `ai` mode (`page.ariaSnapshotJSON({ mode: 'ai', boxes: true })`): the
 * role, the accessible name, the reference of an element one can act on, its box in its frame's viewport, and the
 * states. An iframe's node holds its frame's nodes as children.
 */
export interface AriaJsonNode {
  role: string;
  name?: string;
  ref?: string;
  cursor?: string;
  box?: { x: number; y: number; width: number; height: number };
  text?: string;
  children?: (AriaJsonNode | string)[];
  url?: string;
  placeholder?: string;
  ariaHidden?: boolean;
  checked?: boolean | 'mixed';
  disabled?: boolean;
  expanded?: boolean;
  active?: boolean;
  invalid?: boolean | string;
  level?: number;
  pressed?: boolean | 'mixed';
  selected?: boolean;
}

export interface SnapshotView {
  viewport: { width: number; height: number };
  /**
   * What identifies an element with no name (its title, icon, class: element-hints.ts), by reference; shown with
   * the element's centre in the viewport. An element in the map with an empty hint gets its centre alone.
   */
  hints: ReadonlyMap<string, string>;
  /** `snapshot {ref}`: only that element's part of the page, in full (longer lists, nothing cut for distance). */
  focus: string | null;
}

/** Elements further than this many viewport heights above or below what is on screen are left out. */
const FAR_SCREENS = 2;
/** A list with more items than this shows the first `LIST_SHOWN` and a count of the rest. */
const LIST_LIMIT = 20;
const LIST_SHOWN = 12;
const FOCUS_LIST_LIMIT = 250;
/** The snapshot's own limit: past it, lines are left out with a count. */
const MAX_CHARS = 14_000;
const FOCUS_MAX_CHARS = 18_000;
/** Text runs are for recognising where one is; read_text gives the page's text whole. */
const TEXT_LIMIT = 240;
/** Roles whose pointer cursor says nothing new (they are controls anyway). */
const CONTROL_ROLES = new Set(['button', 'link', 'checkbox', 'radio', 'switch', 'tab', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'option', 'combobox', 'textbox', 'searchbox', 'slider', 'spinbutton', 'treeitem']);
/** Containers whose items are cut past `LIST_LIMIT`; other containers show what is near the screen in full. */
const LIST_ROLES = new Set(['list', 'listbox', 'combobox', 'menu', 'menubar', 'grid', 'table', 'rowgroup', 'tree', 'treegrid', 'radiogroup', 'tablist', 'feed', 'directory']);
/** Landmarks that repeat on every page of a site: shown as one line when they hold many elements. */
const BOILERPLATE_ROLES = new Set(['contentinfo']);
const BOILERPLATE_REFS = 6;

interface Omitted {
  farBelow: number;
  farAbove: number;
  ariaHidden: number;
  boilerplate: string[];
  lists: string[];
}

/**
 * The snapshot as the agent reads it: Playwright's `ai` format (`- button "Save" [ref=e12]`), made cheaper. It leaves
 * out what cannot be seen or used (parts hidden from assistive technology, elements far off screen), collapses
 * wrappers with nothing of their own, shortens long text and long lists (with a count and the way to see them),
 * shows a page footer as one line, describes an element with no name by what identifies it, and states its size and
 * what it left out in its first lines.
 */
export function renderSnapshot(nodes: readonly (AriaJsonNode | string)[], view: SnapshotView): string {
  const omitted: Omitted = { farBelow: 0, farAbove: 0, ariaHidden: 0, boilerplate: [], lists: [] };
  const lines: string[] = [];
  let roots = nodes;
  let offset = { x: 0, y: 0 };
  if (view.focus !== null) {
    const found = findRef(nodes, view.focus, { x: 0, y: 0 });
    if (found === null) return `${view.focus} is not on the page now: take a new snapshot`;
    roots = [found.node];
    offset = found.offset;
  }
  const limit = view.focus === null ? LIST_LIMIT : FOCUS_LIST_LIMIT;
  /** Whether a node is further than FAR_SCREENS viewports above or below the screen (never in a focused snapshot). */
  const farOff = (node: AriaJsonNode | string, at: { x: number; y: number }): 'above' | 'below' | null => {
    if (view.focus !== null || typeof node === 'string' || node.box === undefined || node.box.width === 0 || node.box.height === 0) return null;
    const top = node.box.y + at.y;
    if (top > view.viewport.height * (1 + FAR_SCREENS)) return 'below';
    if (top + node.box.height < -view.viewport.height * FAR_SCREENS) return 'above';
    return null;
  };
  const render = (node: AriaJsonNode | string, depth: number, at: { x: number; y: number }, nearestRef: string | null): void => {
    const indent = '  '.repeat(depth);
    if (typeof node === 'string') {
      const text = clip(node);
      if (text !== '') lines.push(`${indent}- text: ${text}`);
      return;
    }
    if (node.ariaHidden === true) {
      omitted.ariaHidden += 1;
      return;
    }
    const far = farOff(node, at);
    if (far !== null) {
      if (far === 'below') omitted.farBelow += Math.max(1, countRefs(node));
      else omitted.farAbove += Math.max(1, countRefs(node));
      return;
    }
    const children = node.children ?? [];
    const ref = node.ref ?? nearestRef;
    if (isWrapper(node)) {
      renderChildren(children, depth, at, ref, node);
      return;
    }
    if (view.focus === null && BOILERPLATE_ROLES.has(node.role) && node.ref !== undefined && countRefs(node) > BOILERPLATE_REFS) {
      lines.push(`${indent}${head(node, view, at)} (${countRefs(node) - 1} elements left out: snapshot {ref: "${node.ref}"} shows them)`);
      omitted.boilerplate.push(node.ref);
      return;
    }
    const text = node.text === undefined ? '' : clip(node.text);
    lines.push(`${indent}${head(node, view, at)}${text === '' ? '' : `: ${text}`}${children.length > 0 ? (text === '' ? ':' : '') : ''}`);
    // An iframe's boxes are in its own viewport, which starts at the iframe's box.
    const inner = node.role === 'iframe' && node.box !== undefined ? { x: at.x + node.box.x, y: at.y + node.box.y } : at;
    renderChildren(children, depth + 1, inner, ref, node);
  };
  const renderChildren = (all: readonly (AriaJsonNode | string)[], depth: number, at: { x: number; y: number }, ref: string | null, parent: AriaJsonNode): void => {
    // What is far off screen is left out first, so that a long list is cut among what is near.
    const children = all.filter((child) => {
      const far = farOff(child, at);
      if (far === 'below') omitted.farBelow += Math.max(1, countRefs(child));
      if (far === 'above') omitted.farAbove += Math.max(1, countRefs(child));
      return far === null;
    });
    const elements = children.filter((child) => typeof child !== 'string');
    if (elements.length <= limit || !LIST_ROLES.has(parent.role)) {
      for (const child of children) render(child, depth, at, ref);
      return;
    }
    let shown = 0;
    let left = 0;
    for (const child of children) {
      if (typeof child !== 'string') {
        if (shown >= LIST_SHOWN) {
          left += 1;
          continue;
        }
        shown += 1;
      } else if (left > 0) {
        continue;
      }
      render(child, depth, at, ref);
    }
    const kinds = summarise(elements.slice(LIST_SHOWN) as AriaJsonNode[]);
    const how = view.focus !== null ? 'not shown' : ref === null ? 'scroll to see them' : `snapshot {ref: "${ref}"} shows them`;
    const choose = parent.role === 'combobox' || parent.role === 'listbox' ? '; select takes any by label or value' : '';
    lines.push(`${'  '.repeat(depth)}- … ${left} more ${kinds} (${how}${choose})`);
    if (ref !== null) omitted.lists.push(ref);
  };
  for (const node of roots) render(node, 0, offset, null);

  const max = view.focus === null ? MAX_CHARS : FOCUS_MAX_CHARS;
  let body = lines.join('\n');
  if (body.length > max) {
    let kept = 0;
    let size = 0;
    while (kept < lines.length && size + lines[kept]!.length + 1 <= max) size += lines[kept++]!.length + 1;
    body = `${lines.slice(0, kept).join('\n')}\n- … ${lines.length - kept} more lines (scroll down and snapshot again, or snapshot {ref} of one part)`;
  }
  const refs = (body.match(/\[ref=[a-z0-9]+\]/g) ?? []).length;
  const header = [`snapshot${view.focus === null ? '' : ` of ${view.focus}`}: ${body.length.toLocaleString('en-US')} characters, ${refs} references`];
  const left = leftOut(omitted);
  if (left !== null) header.push(`left out: ${left}`);
  return `${header.join('\n')}\n${body}`;
}

/** The references in a snapshot and what the snapshot said of each (role, name, whether inside an iframe). */
export function snapshotRefs(nodes: readonly (AriaJsonNode | string)[]): RefElement[] {
  const out: RefElement[] = [];
  const walk = (node: AriaJsonNode | string, framed: boolean): void => {
    if (typeof node === 'string') return;
    const text = node.text ?? (node.children ?? []).filter((child): child is string => typeof child === 'string').join(' ');
    if (node.ref !== undefined) out.push({ ref: node.ref, role: node.role, name: node.name ?? '', text: text.replace(/\s+/g, ' ').trim(), framed });
    for (const child of node.children ?? []) walk(child, framed || node.role === 'iframe');
  };
  for (const node of nodes) walk(node, false);
  return out;
}

/** The part of a reference that names its frame: `f2` of `f2e14`, `` of `e14`. */
export function refFrame(ref: string): string {
  return ref.replace(/e\d+$/, '');
}

/** Each iframe's reference, with the frame part of the references inside it. */
export function iframeRefs(nodes: readonly (AriaJsonNode | string)[]): { iframe: string; frame: string }[] {
  const out: { iframe: string; frame: string }[] = [];
  const firstRef = (node: AriaJsonNode | string): string | null => {
    if (typeof node === 'string') return null;
    if (node.ref !== undefined) return node.ref;
    for (const child of node.children ?? []) {
      const found = firstRef(child);
      if (found !== null) return found;
    }
    return null;
  };
  const walk = (node: AriaJsonNode | string): void => {
    if (typeof node === 'string') return;
    if (node.role === 'iframe' && node.ref !== undefined) {
      for (const child of node.children ?? []) {
        const inner = firstRef(child);
        if (inner !== null) {
          out.push({ iframe: node.ref, frame: refFrame(inner) });
          break;
        }
      }
    }
    for (const child of node.children ?? []) walk(child);
  };
  for (const node of nodes) walk(node);
  return out;
}

/** Nameless elements one can act on, which the snapshot describes by hints (element-hints.ts). */
export function namelessRefs(nodes: readonly (AriaJsonNode | string)[]): string[] {
  const out: string[] = [];
  const walk = (node: AriaJsonNode | string): void => {
    if (typeof node === 'string') return;
    if (node.ref !== undefined && (node.name ?? '') === '' && node.text === undefined && (node.children ?? []).length === 0 && (CONTROL_ROLES.has(node.role) || node.cursor === 'pointer' || node.role === 'img')) {
      out.push(node.ref);
    }
    for (const child of node.children ?? []) walk(child);
  };
  for (const node of nodes) walk(node);
  return out;
}

function head(node: AriaJsonNode, view: SnapshotView, at: { x: number; y: number }): string {
  const parts = [`- ${node.role}`];
  if (node.name !== undefined && node.name !== '') parts.push(JSON.stringify(clip(node.name)));
  if (node.checked === true) parts.push('[checked]');
  if (node.checked === 'mixed') parts.push('[checked=mixed]');
  if (node.disabled === true) parts.push('[disabled]');
  if (node.expanded === true) parts.push('[expanded]');
  if (node.active === true) parts.push('[active]');
  if (node.invalid !== undefined && node.invalid !== false) parts.push('[invalid]');
  if (node.level !== undefined) parts.push(`[level=${node.level}]`);
  if (node.pressed === true) parts.push('[pressed]');
  if (node.pressed === 'mixed') parts.push('[pressed=mixed]');
  if (node.selected === true) parts.push('[selected]');
  if (node.ref !== undefined) parts.push(`[ref=${node.ref}]`);
  if (node.cursor === 'pointer' && !CONTROL_ROLES.has(node.role)) parts.push('[cursor=pointer]');
  if (node.placeholder !== undefined) parts.push(`[placeholder=${JSON.stringify(clip(node.placeholder))}]`);
  if (node.url !== undefined) parts.push(`[url=${clip(node.url)}]`);
  const hint = node.ref === undefined ? undefined : view.hints.get(node.ref);
  if (hint !== undefined) {
    const where = node.box === undefined ? '' : `at ${Math.round(at.x + node.box.x + node.box.width / 2)},${Math.round(at.y + node.box.y + node.box.height / 2)}`;
    const said = [hint, where].filter((part) => part !== '').join(', ');
    if (said !== '') parts.push(`(${said})`);
  }
  return parts.join(' ');
}

/** A container with nothing of its own to say or act on: its children stand in its place. */
function isWrapper(node: AriaJsonNode): boolean {
  return node.role === 'generic' && (node.name ?? '') === '' && node.cursor === undefined && node.text === undefined && (node.children ?? []).some((child) => typeof child !== 'string');
}

function countRefs(node: AriaJsonNode | string): number {
  if (typeof node === 'string') return 0;
  return (node.ref === undefined ? 0 : 1) + (node.children ?? []).reduce((sum, child) => sum + countRefs(child), 0);
}

function findRef(nodes: readonly (AriaJsonNode | string)[], ref: string, at: { x: number; y: number }): { node: AriaJsonNode; offset: { x: number; y: number } } | null {
  for (const node of nodes) {
    if (typeof node === 'string') continue;
    if (node.ref === ref) return { node, offset: at };
    const inner = node.role === 'iframe' && node.box !== undefined ? { x: at.x + node.box.x, y: at.y + node.box.y } : at;
    const found = findRef(node.children ?? [], ref, inner);
    if (found !== null) return found;
  }
  return null;
}

function summarise(nodes: readonly AriaJsonNode[]): string {
  const roles = new Map<string, number>();
  for (const node of nodes) roles.set(node.role, (roles.get(node.role) ?? 0) + 1);
  if (roles.size === 1) return plural([...roles.keys()][0]!);
  return 'elements';
}

function plural(role: string): string {
  if (role === 'generic' || role === 'text') return 'elements';
  return role.endsWith('x') ? `${role}es` : `${role}s`;
}

function clip(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= TEXT_LIMIT) return flat;
  // Cut at a word's end, so that no half word reads as another.
  const cut = flat.slice(0, TEXT_LIMIT + 1).replace(/\s*\S*$/, '') || flat.slice(0, TEXT_LIMIT);
  return `${cut}… (${flat.length - cut.length} more characters: read_text)`;
}

function leftOut(omitted: Omitted): string | null {
  const parts: string[] = [];
  if (omitted.farBelow > 0) parts.push(`${omitted.farBelow} elements further down (scroll down, or scroll {text})`);
  if (omitted.farAbove > 0) parts.push(`${omitted.farAbove} elements further up (scroll up)`);
  if (omitted.ariaHidden > 0) parts.push(`${omitted.ariaHidden} parts hidden from assistive technology (aria-hidden)`);
  if (omitted.boilerplate.length > 0) parts.push(`the page footer (${omitted.boilerplate.join(', ')})`);
  if (omitted.lists.length > 0) parts.push(`items of long lists (${[...new Set(omitted.lists)].join(', ')})`);
  return parts.length === 0 ? null : parts.join('; ');
}
