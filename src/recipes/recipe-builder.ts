import type { SecretMask } from '../connections/secret-mask.js';
import type { BrowserRequest, BrowserResult, PointerTarget } from '../sandbox/protocol.js';
import type { Observation } from './observed-sandbox.js';
import type { BrowserStep, InputFileRef, Locator, PageFingerprint, Recipe, RecipeStep } from './recipe.js';
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
    if (err instanceof UnknownAction || err instanceof UnknownInputFile || err instanceof Unreplayable) return { why: err.message };
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
  const at = (keyText: string[] = []): PageFingerprint | null => fingerprintOf(before.url, before.title, keyText, values);
  const located = (target: PointerTarget): { locators: Locator[]; keyText: string[] } => {
    const locators = locatorsOf(target, result.elements, snapshot, values);
    return { locators, keyText: locators.flatMap((l) => (l.kind === 'text' ? [l.text] : [])) };
  };
  switch (request.action) {
    case 'navigate':
      return { tool: 'browser', action: 'navigate', url: toPlaceholders(request.url, values, 'url'), page: null };
    case 'back':
    case 'forward':
    case 'reload':
      return { tool: 'browser', action: request.action, page: at() };
    case 'click': {
      const { locators, keyText } = located(request);
      return {
        tool: 'browser',
        action: 'click',
        locators,
        ...(request.button === undefined || request.button === 'left' ? {} : { button: request.button }),
        ...(request.clickCount === 2 ? { double: true } : {}),
        ...(request.modifiers === undefined || request.modifiers.length === 0 ? {} : { modifiers: request.modifiers }),
        page: at(keyText),
      };
    }
    case 'hover': {
      const { locators, keyText } = located(request);
      return { tool: 'browser', action: 'hover', locators, page: at(keyText) };
    }
    case 'type':
      return {
        tool: 'browser',
        action: 'type',
        locators: 'selector' in request ? typeLocators(request.selector, result, values) : located(request).locators,
        text: toPlaceholders(request.text, values),
        ...(request.submit === true ? { submit: true } : {}),
        page: at(),
      };
    case 'select':
      return { tool: 'browser', action: 'select', locators: located(request).locators, values: request.values.map((v) => toPlaceholders(v, values)), page: at() };
    case 'press':
      return { tool: 'browser', action: 'press', key: request.key, page: at() };
    case 'drag': {
      const from = located(request);
      return { tool: 'browser', action: 'drag', locators: from.locators, to_locators: located(request.to).locators, page: at(from.keyText) };
    }
    case 'upload':
      return {
        tool: 'browser',
        action: 'upload',
        locators: located(request).locators,
        files: request.files.map((name) => inputFileRef(name, inputFiles)),
        page: at(),
      };
    case 'scroll':
      if ('toText' in request) return { tool: 'browser', action: 'scroll', text: toPlaceholders(request.toText, values), page: null };
      return {
        tool: 'browser',
        action: 'scroll',
        direction: request.direction,
        ...(request.amount !== undefined ? { amount: request.amount } : {}),
        ...(request.at === undefined ? {} : { locators: located(request.at).locators }),
        page: null,
      };
    case 'wait':
      return 'text' in request
        ? { tool: 'browser', action: 'wait', text: toPlaceholders(request.text, values), ...(request.gone === true ? { gone: true } : {}), ...(request.seconds === undefined ? {} : { seconds: request.seconds }), page: null }
        : { tool: 'browser', action: 'wait', seconds: request.seconds, page: null };
    case 'dialog':
      // A dialog holds its page: its title cannot be read then, so the step checks no page.
      return { tool: 'browser', action: 'dialog', accept: request.accept, ...(request.text === undefined ? {} : { text: toPlaceholders(request.text, values) }), page: null };
    case 'tab':
      return { tool: 'browser', action: 'tab', index: request.index, ...(request.close === true ? { close: true } : {}), page: null };
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
 * How a replay finds the element a step acted on. One named by a snapshot's reference: by the role and accessible
 * name that snapshot showed (a button's role and name survive a restyled page), or, without a name, by its text. A
 * click by text gets a role locator when the agent's last snapshot showed an element of that name
 * (`- button "Search"`), tried first. A selector is kept. A point, an element with neither name nor text (an icon),
 * and one inside an iframe cannot be found again that way: the run then makes no recipe, and says why.
 */
function locatorsOf(target: PointerTarget, elements: BrowserResult['elements'], snapshot: string, values: ReturnType<typeof inputValues>): Locator[] {
  if ('x' in target) throw new Unreplayable(`the run acted at the point ${target.x},${target.y} of the page, and a replay cannot know the page is laid out the same`);
  if ('selector' in target) return [selectorLocator(target.selector, values)];
  if ('ref' in target) {
    const element = elements.find((e) => e.ref === target.ref);
    if (element === undefined) throw new Unreplayable(`the run acted on ${target.ref}, which its result did not describe`);
    const said = `${element.role}${element.name === '' ? '' : ` ${JSON.stringify(element.name)}`}`;
    if (element.framed) throw new Unreplayable(`the run acted on the ${said} inside an iframe, which a replay does not look into yet`);
    if (element.name !== '') return [{ kind: 'role', selector: `role=${element.role}[name=${JSON.stringify(toPlaceholders(element.name, values))}]` }];
    if (element.text !== '') return [{ kind: 'text', text: toPlaceholders(element.text, values) }];
    throw new Unreplayable(`the run acted on a ${element.role} with no name or text (an icon), which a replay cannot find again`);
  }
  const text = target.text;
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

/** A step the run did that a replay could not do again the same way. */
class Unreplayable extends Error {
  constructor(why: string) {
    super(why);
    this.name = 'Unreplayable';
  }
}

/** A browser action the recipe format does not know yet. */
export class UnknownAction extends Error {
  constructor(readonly action: string) {
    super(`the run used the browser action ${action}, which recipes do not record yet`);
    this.name = 'UnknownAction';
  }
}

