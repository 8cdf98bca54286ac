import type { CodeLanguage, KeyModifier, ScrollDirection } from '../sandbox/protocol.js';

/**
 * A job's recipe (issue 24): what a run that succeeded did, kept so that later runs can do it again without the
 * model. Every string may hold placeholders: `{{name}}` for a job input (the value a run was given is never kept),
 * `{{secret:name}}` for a connection's secret (typed by reference, as the agent typed it). docs/api.md, Replay.
 */
export interface Recipe {
  format: 1;
  steps: RecipeStep[];
  /** How each member of the result is read once the steps are done. */
  extraction: Record<string, MemberRule>;
}

/**
 * A browser action as the supervisor takes it (protocol.ts), with its element's locators in the order a replay tries
 * them: role and accessible name, then text, then the CSS or Playwright selector the agent used. An element the agent
 * named by a snapshot's reference is kept by the role and name (or text) that snapshot showed. Actions that only
 * read the page (read_text, snapshot, screenshot) are not kept: they change nothing a later step needs.
 */
export type BrowserStep = {
  tool: 'browser';
  action: string;
  /** navigate */
  url?: string;
  /** type: what is typed; scroll: the text scrolled to; wait: the text waited for; dialog: a prompt's answer. */
  text?: string;
  submit?: boolean;
  /** press: a key or a chord (Control+A) */
  key?: string;
  /** scroll */
  direction?: ScrollDirection;
  amount?: number;
  /** upload: which of the run's input files go on the file input, by their place in the run's `files`. */
  files?: InputFileRef[];
  /** click, hover, type, select, upload, drag (what is dragged), scroll (the area): tried in order until one finds the element. */
  locators?: Locator[];
  /** drag: where to. */
  to_locators?: Locator[];
  /** select: the options, by label or value. */
  values?: string[];
  /** click */
  button?: 'right' | 'middle';
  double?: boolean;
  modifiers?: KeyModifier[];
  /** wait */
  gone?: boolean;
  seconds?: number;
  /** dialog */
  accept?: boolean;
  /** tab */
  index?: number;
  close?: boolean;
  /** The page the step expects to act on; null for the first navigation. */
  page: PageFingerprint | null;
};

/**
 * One of the run's input files (issue 23), as a recipe names it: its place in the run's `files` (0-based), never its
 * name or its bytes (each run is given its own), and the content type the recorded run uploaded there: a replay
 * uploads the file at that place only when it has that type, the same kind of input.
 */
export interface InputFileRef {
  index: number;
  content_type: string;
}

export type CodeStep = { tool: 'code'; language: CodeLanguage; code: string };

export type RecipeStep = BrowserStep | CodeStep;

/** `selector` is a Playwright selector (`role=button[name="Search"]`, `#q`); `text` the visible text a click uses. */
export type Locator = { kind: 'role'; selector: string } | { kind: 'text'; text: string } | { kind: 'css'; selector: string };

/**
 * What a step expects of the page: its URL (origin and path, with `*` for a path segment that held an id, and query
 * parameters by name only), its title when the page is the same page for every input (no `*` in the path), and text
 * that must be on it (the label of the element the step acts on).
 */
export interface PageFingerprint {
  url: string;
  title: string | null;
  key_text: string[];
}

/** A number's type is the output_schema's to judge (integer or not): a recipe reads any number. */
export type MemberType = 'string' | 'number' | 'boolean';

/**
 * Where a result member comes from: a line of the final page's text (between `prefix` and `suffix`; a line that is
 * the whole value is found by the line before it, `before`), or a member of the JSON a code step printed.
 */
export type MemberRule =
  | { from: 'page_text'; type: MemberType; prefix: string; suffix: string; before: string | null }
  | { from: 'code_output'; type: MemberType; step: number; key: string };
