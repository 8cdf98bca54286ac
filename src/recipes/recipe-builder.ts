import type { SecretMask } from '../connections/secret-mask.js';
import type { BrowserRequest, BrowserResult } from '../sandbox/protocol.js';
import type { Observation } from './observed-sandbox.js';
import type { BrowserStep, InputFileRef, Locator, Recipe, RecipeStep } from './recipe.js';
import { inputValues, leakedInputs, toPlaceholders } from './input-placeholders.js';
import { fingerprintOf } from './page-fingerprint.js';
import { extractionOf, jsonOf } from './result-extraction.js';
import { escapeRegExp } from '../text/escape-regexp.js';

export interface RecipeSource {
  /** What the run did in its sandbox, in order (ObservedSandbox). */
  observations: readonly Observation[];
  inputs: Record<string, unknown>;
  /** The run's input files, in the order of its `files`: an upload is recorded by a file's place there. */
  inputFiles: readonly { name: string; contentType: string }[];
  result: Record<string, unknown>;
  /** The final page's text, read once the run had its result; null when the browser was never used. */
  finalPageText: string | null;
  /** The run's secrets: a recipe in which one shows is not kept. */
  mask: SecretMask;
}

/**
 * The recipe of a run that succeeded, or why it has none. Steps that failed are left out (the agent tried
 * something else), and so are actions that only read the page; what the run was given is replaced by placeholders,
 * and a recipe that would still hold an input's or a secret's value is refused rather than kept.
 */
export function buildRecipe(source: RecipeSource): { recipe: Recipe } | { why: string } {
  const values = inputValues(source.inputs);
  const steps: RecipeStep[] = [];
  const codeOutputs: { step: number; json: Record<string, unknown> }[] = [];
  let page: { url: string | null; title: string | null } = { url: null, title: null };
  let snapshot = '';
  try {
    for (const o of source.observations) {
      addStep(o);
    }
  } catch (err) {
    if (err instanceof UnknownAction || err instanceof UnknownInputFile) return { why: err.message };
    throw err;
  }
  function addStep(o: Observation): void {
    if (o.kind === 'exec') {
      if (o.result.exitCode !== 0 || o.result.timedOut) return;
      const json = jsonOf(o.result.stdout);
      if (json !== null) codeOutputs.push({ step: steps.length, json });
      steps.push({ tool: 'code', language: o.request.language, code: toPlaceholders(o.request.code, values) });
      return;
    }
    const { request, result } = o;
    const before = page;
    if (result.url !== null) page = { url: result.url, title: result.title };
    if (!result.ok) return;
    if (request.action === 'snapshot') snapshot = result.text;
    const step = browserStep(request, result, before, snapshot, values, source.inputFiles);
    if (step !== null) steps.push(step);
  }
  if (steps.length === 0) return { why: 'the run did nothing a replay could repeat' };
  const extraction = extractionOf(source.result, source.finalPageText, codeOutputs, values);
  if ('why' in extraction) return extraction;
  const recipe: Recipe = { format: 1, steps, extraction: extraction.rules };
  const json = JSON.stringify(recipe);
  const leaked = leakedInputs(json, values);
  if (leaked.length > 0) return { why: `the recipe would hold the value of the input ${leaked.join(', ')}` };
  if (source.mask.text(json) !== json) return { why: "the recipe would hold a secret's value" };
  return { recipe };
}

function browserStep(
  request: BrowserRequest,
  result: BrowserResult,
  before: { url: string | null; title: string | null },
  snapshot: string,
  values: ReturnType<typeof inputValues>,
  inputFiles: RecipeSource['inputFiles'],
): BrowserStep | null {
  switch (request.action) {
    case 'navigate':
      return { tool: 'browser', action: 'navigate', url: toPlaceholders(request.url, values, 'url'), page: null };
    case 'click': {
      const locators = clickLocators(request, snapshot, values);
      const keyText = locators.flatMap((l) => (l.kind === 'text' ? [l.text] : []));
      return { tool: 'browser', action: 'click', locators, page: fingerprintOf(before.url, before.title, keyText, values) };
    }
    case 'type':
      return {
        tool: 'browser',
        action: 'type',
        locators: typeLocators(request.selector, result, values),
        text: toPlaceholders(request.text, values),
        ...(request.submit === true ? { submit: true } : {}),
        page: fingerprintOf(before.url, before.title, [], values),
      };
    case 'press':
      return { tool: 'browser', action: 'press', key: request.key, page: fingerprintOf(before.url, before.title, [], values) };
    case 'upload':
      return {
        tool: 'browser',
        action: 'upload',
        locators: [selectorLocator(request.selector, values)],
        files: request.files.map((name) => inputFileRef(name, inputFiles)),
        page: fingerprintOf(before.url, before.title, [], values),
      };
    case 'scroll':
      return { tool: 'browser', action: 'scroll', direction: request.direction, ...(request.amount !== undefined ? { amount: request.amount } : {}), page: null };
    case 'read_text':
    case 'snapshot':
    case 'screenshot':
      return null;
    default:
      // An action added to the browser tool later is not replayed until the recipe knows it: a run that
      // used it makes no recipe rather than one that skips a step.
      throw new UnknownAction((request as { action: string }).action);
  }
}

/**
 * A click by text gets a role locator when the agent's last accessibility snapshot showed an element of that name
 * (`- button "Search"`), tried first: a button's role and name survive a restyled page. A click by selector keeps it.
 */
function clickLocators(request: Extract<BrowserRequest, { action: 'click' }>, snapshot: string, values: ReturnType<typeof inputValues>): Locator[] {
  if (request.selector !== undefined) return [selectorLocator(request.selector, values)];
  const text = request.text!;
  const locators: Locator[] = [];
  const role = new RegExp(`^\\s*-\\s+([a-z]+)\\s+"${escapeRegExp(text)}"`, 'm').exec(snapshot)?.[1];
  const kept = toPlaceholders(text, values);
  if (role !== undefined) locators.push({ kind: 'role', selector: `role=${role}[name=${JSON.stringify(kept)}]` });
  locators.push({ kind: 'text', text: kept });
  return locators;
}

/**
 * A field typed into is found as a click is: by its role and exact accessible name first (the supervisor answers the
 * role selector when no other element of the page has that name: `role=textbox[name="Email"s]`), then by the
 * selector the agent used, so that a field whose id changed is still found by its label.
 */
function typeLocators(selector: string, result: BrowserResult, values: ReturnType<typeof inputValues>): Locator[] {
  const agent = selectorLocator(selector, values);
  const role = result.roleSelector;
  if (role === undefined || !ROLE_SELECTOR.test(role)) return [agent];
  const byRole: Locator = { kind: 'role', selector: toPlaceholders(role, values) };
  return agent.kind === 'role' && agent.selector === byRole.selector ? [agent] : [byRole, agent];
}

/** The shape of the role selector a supervisor answers for a field (role-selector.ts there). */
const ROLE_SELECTOR = /^role=[a-z]+\[name="(?:[^"\\]|\\.)*"s\]$/;

function selectorLocator(selector: string, values: ReturnType<typeof inputValues>): Locator {
  const kept = toPlaceholders(selector, values);
  return kept.startsWith('role=') ? { kind: 'role', selector: kept } : { kind: 'css', selector: kept };
}

/**
 * An uploaded file by its place among the run's input files: each run is given its own files, so the name the first
 * run's had is not kept (nor, ever, its bytes).
 */
function inputFileRef(name: string, inputFiles: RecipeSource['inputFiles']): InputFileRef {
  const index = inputFiles.findIndex((f) => f.name === name);
  if (index < 0) throw new UnknownInputFile(name);
  return { index, content_type: inputFiles[index]!.contentType };
}

/** An upload of a file that is not one of the run's input files (the supervisor refuses those: not expected). */
class UnknownInputFile extends Error {
  constructor(name: string) {
    super(`the run uploaded ${JSON.stringify(name)}, which is not one of its input files`);
    this.name = 'UnknownInputFile';
  }
}

/** A browser action the recipe format does not know yet. */
export class UnknownAction extends Error {
  constructor(readonly action: string) {
    super(`the run used the browser action ${action}, which recipes do not record yet`);
    this.name = 'UnknownAction';
  }
}

