import { traced } from '../tracing/attempt-trace.js';
import { performance } from 'node:perf_hooks';
import type { ToolContext } from '../agent-tools/agent-tool.js';
import { browserResultText } from '../sandbox/browser-result-text.js';
import { codeResultText } from '../sandbox/code-result-text.js';
import { withSecrets } from '../connections/secret-references.js';
import { resultErrors } from '../runs/result-errors.js';
import type { SucceededOutcome } from '../runs/run-outcome.js';
import type { UserSchemas } from '../runs/user-schemas.js';
import type { BrowserAction, BrowserResult } from '../sandbox/protocol.js';
import { fromJson } from '../store/json-columns.js';
import { fromPlaceholders, inputValues, MissingInput, type InputValue } from './input-placeholders.js';
import { fingerprintMismatch } from './page-fingerprint.js';
import type { BrowserStep, CodeStep, InputFileRef, Locator, Recipe, RecipeStep } from './recipe.js';
import { extractResult } from './result-extraction.js';

/** How a replay ended: with the run's result, or where the recipe stopped fitting, for the agent to go on from. */
export type ReplayOutcome = { kind: 'replayed'; outcome: SucceededOutcome } | { kind: 'diverged'; handover: string; at: string };

/**
 * Runs a job's recipe in the run's sandbox with the run's inputs and no model: each step's page fingerprint is
 * checked first, element steps try their locators in order, and the result is read by the recipe's rules and
 * checked against the output_schema. The first thing that does not fit ends the replay with a handover, the
 * account of what was done, from which the agent takes over (docs/api.md, Replay). Steps are recorded as
 * `replay.<tool>` steps, with the recipe's placeholders, never the values typed.
 */
export class RecipeReplay {
  private readonly values: InputValue[];
  private readonly done: string[] = [];
  private readonly codeOutputs = new Map<number, string>();
  private page: { url: string | null; title: string | null } = { url: null, title: null };

  constructor(
    private readonly recipe: Recipe,
    private readonly ctx: ToolContext,
    private readonly options: {
      codeTimeoutS: number;
      schemas: UserSchemas;
      version: number;
      /** The run's input files, in the order of its `files`, for the recipe's uploads. */
      inputFiles: readonly { name: string; contentType: string }[];
    },
  ) {
    this.values = inputValues(fromJson<Record<string, unknown>>(ctx.run.inputs) ?? {});
  }

  async run(): Promise<ReplayOutcome> {
    const { steps } = this.recipe;
    for (let i = 0; i < steps.length; i += 1) {
      const step = steps[i]!;
      const why = await traced(
        this.ctx.trace,
        'errand.replay.step',
        { 'errand.replay.step': i + 1, 'errand.replay.steps': steps.length, 'errand.replay.tool': step.tool, 'errand.replay.action': step.tool === 'code' ? step.language : step.action },
        async (span) => {
          let why: string | null;
          try {
            why = step.tool === 'code' ? await this.code(step, i) : await this.browser(step);
          } catch (err) {
            if (!(err instanceof MissingInput)) throw err;
            why = err.message;
          }
          span.set({ 'errand.replay.fits': why === null });
          return why;
        },
      );
      if (why !== null) return this.diverged(`step ${i + 1} of ${steps.length} (${describe(step)})`, why);
      this.done.push(`${i + 1}. ${describe(step)}: done`);
    }
    return this.extract();
  }

  private async browser(step: BrowserStep): Promise<string | null> {
    if (step.page !== null) {
      const text = step.page.key_text.length > 0 ? await this.pageText() : null;
      const mismatch = fingerprintMismatch(step.page, this.page.url, this.page.title, text, this.values);
      if (mismatch !== null) return mismatch;
    }
    if (step.action === 'upload') {
      const missing = this.missingFile(step.files ?? []);
      if (missing !== null) return missing;
    }
    const attempts = this.requests(step);
    let last: BrowserResult | null = null;
    for (const request of attempts) {
      last = await this.act(step, request);
      if (last.ok) return null;
    }
    return last === null ? `the step has nothing to act on` : `${step.locators === undefined ? 'the action' : 'no locator found the element'} failed: ${firstLine(last.text)}`;
  }

  /** The protocol actions a step may be done by: one, or one per locator (or pair of locators), in order. */
  private requests(step: BrowserStep): BrowserAction[] {
    const fill = (text: string): string => fromPlaceholders(text, this.values);
    const targets = (step.locators ?? []).map((l) => locate(l, fill));
    switch (step.action) {
      case 'navigate':
        return [{ action: 'navigate', url: fromPlaceholders(step.url ?? '', this.values, 'url') }];
      case 'back':
      case 'forward':
      case 'reload':
        return [{ action: step.action }];
      case 'click':
        return targets.map((target) => ({
          action: 'click' as const,
          ...target,
          ...(step.button === undefined ? {} : { button: step.button }),
          ...(step.double === true ? { clickCount: 2 as const } : {}),
          ...(step.modifiers === undefined ? {} : { modifiers: step.modifiers }),
        }));
      case 'hover':
        return targets.map((target) => ({ action: 'hover' as const, ...target }));
      case 'type':
        return targets.map((target) => ({ action: 'type' as const, selector: asSelector(target), text: fill(step.text ?? ''), ...(step.submit === true ? { submit: true } : {}) }));
      case 'select':
        return targets.map((target) => ({ action: 'select' as const, ...target, values: (step.values ?? []).map(fill) }));
      case 'drag': {
        const ends = (step.to_locators ?? []).map((l) => locate(l, fill));
        return targets.flatMap((target) => ends.map((to) => ({ action: 'drag' as const, ...target, to })));
      }
      case 'upload': {
        const files = (step.files ?? []).map((f) => this.options.inputFiles[f.index]!.name);
        return targets.map((target) => ({ action: 'upload' as const, selector: asSelector(target), files }));
      }
      case 'press':
        return [{ action: 'press', key: step.key ?? '' }];
      case 'scroll': {
        if (step.text !== undefined) return [{ action: 'scroll', toText: fill(step.text) }];
        const scroll = { action: 'scroll' as const, direction: step.direction ?? 'down', ...(step.amount !== undefined ? { amount: step.amount } : {}) };
        return targets.length === 0 ? [scroll] : targets.map((at) => ({ ...scroll, at }));
      }
      case 'wait':
        return step.text === undefined
          ? [{ action: 'wait', seconds: step.seconds ?? 1 }]
          : [{ action: 'wait', text: fill(step.text), ...(step.gone === true ? { gone: true } : {}), ...(step.seconds === undefined ? {} : { seconds: step.seconds }) }];
      case 'dialog':
        return [{ action: 'dialog', accept: step.accept === true, ...(step.text === undefined ? {} : { text: fill(step.text) }) }];
      case 'tab':
        return [{ action: 'tab', index: step.index ?? 0, ...(step.close === true ? { close: true } : {}) }];
      default:
        return [];
    }
  }

  private async act(step: BrowserStep, action: BrowserAction): Promise<BrowserResult> {
    const request = withSecrets(action, this.ctx.secrets);
    if (typeof request === 'string') {
      return { ok: false, text: request, extent: null, url: this.page.url, title: this.page.title, status: null, problem: null, screenshot: null, tabs: [], dialog: null, elements: [] };
    }
    this.ctx.recorder.lastAction(`replay: browser ${step.action}`);
    const started = performance.now();
    const result = await this.ctx.sandbox.browser(request, this.ctx.signal);
    this.ctx.evidence.noteBrowser(action, result);
    if (result.url !== null) this.page = { url: result.url, title: result.title };
    // The recipe's step, with its placeholders: never the value typed.
    const input = { ...step, locator: 'selector' in action ? action.selector : 'text' in action && action.action !== 'type' ? '(text)' : undefined, page: undefined };
    this.ctx.recorder.toolCall({ name: `replay.browser.${step.action}`, input, output: browserResultText(result), isError: !result.ok, durationMs: performance.now() - started });
    return result;
  }

  private async code(step: CodeStep, index: number): Promise<string | null> {
    this.ctx.recorder.lastAction(`replay: run_code ${step.language}`);
    const started = performance.now();
    const result = await this.ctx.sandbox.exec({ language: step.language, code: fromPlaceholders(step.code, this.values), timeoutMs: this.options.codeTimeoutS * 1000 }, this.ctx.signal);
    const text = codeResultText(result, this.options.codeTimeoutS);
    const failed = result.timedOut || result.exitCode !== 0;
    this.ctx.recorder.toolCall({ name: `replay.run_code.${step.language}`, input: step, output: text, isError: failed, durationMs: performance.now() - started });
    if (failed) return `the program ended with ${result.timedOut ? 'a timeout' : `exit code ${result.exitCode ?? '(none)'}`}`;
    this.codeOutputs.set(index, result.stdout);
    return null;
  }

  /**
   * Why the run cannot do an upload of the recipe: it was given no file at that place of its `files`, or one of another
   * type than the recorded run uploaded there (another kind of input: the agent judges what to do with it).
   */
  private missingFile(files: readonly InputFileRef[]): string | null {
    const have = this.options.inputFiles;
    for (const ref of files) {
      const file = have[ref.index];
      if (file === undefined) {
        return `the recipe uploads the run's input file files[${ref.index}] (${ref.content_type}), and this run has ${have.length === 0 ? 'no input files' : `only ${have.length} input file${have.length === 1 ? '' : 's'}`}`;
      }
      if (file.contentType !== ref.content_type) {
        return `the recipe uploads a ${ref.content_type} file as the run's input file files[${ref.index}], and this run's (${file.name}) is ${file.contentType}`;
      }
    }
    return null;
  }

  private async pageText(): Promise<string | null> {
    const result = await this.ctx.sandbox.browser({ action: 'read_text' }, this.ctx.signal);
    if (result.url !== null) this.page = { url: result.url, title: result.title };
    return result.ok ? result.text : null;
  }

  private async extract(): Promise<ReplayOutcome> {
    const started = performance.now();
    const usesPage = Object.values(this.recipe.extraction).some((r) => r.from === 'page_text');
    const text = usesPage ? await this.pageText() : null;
    const extracted = extractResult(this.recipe.extraction, text, this.codeOutputs, this.values);
    const where = 'reading the result';
    const step = (output: string, isError: boolean) =>
      this.ctx.recorder.toolCall({ name: 'replay.extract', input: { extraction: this.recipe.extraction }, output, isError, durationMs: performance.now() - started });
    if ('why' in extracted) {
      step(extracted.why, true);
      return this.diverged(where, extracted.why);
    }
    const errors = await resultErrors(extracted.result, fromJson(this.ctx.run.output_schema), this.options.schemas);
    if (errors.length > 0) {
      const why = `the result read from the page does not satisfy the output_schema: ${errors.join('; ')}`;
      step(why, true);
      return this.diverged(where, why);
    }
    step(`read ${Object.keys(extracted.result).join(', ')} (recipe version ${this.options.version})`, false);
    this.ctx.recorder.lastAction('finish');
    const warnings: string[] = [];
    const evidence = await this.ctx.evidence.collect({ evidenceScreenshot: null, matchedText: extracted.matched.length === 0 ? null : extracted.matched.join('\n'), failureDetail: null }, warnings, true);
    // medium, not high: the result was read where the recipe says, and no one judged the page.
    return { kind: 'replayed', outcome: { status: 'succeeded', result: extracted.result, confidence: 'medium', evidence, warnings, mode: 'replay' } };
  }

  private diverged(at: string, why: string): ReplayOutcome {
    const page = this.page.url === null ? 'no page is open' : `the browser is on ${this.page.url} (${this.page.title ?? 'no title'})`;
    const handover = [
      `This run started as a replay of the job's recorded recipe (version ${this.options.version}), without you. It stopped at ${at}: ${why}.`,
      this.done.length === 0 ? 'No step of the recipe was done.' : `Done so far, in this browser and workspace:\n${this.done.join('\n')}`,
      `Now ${page}. Take over from here: look at the page, do the rest of the task, and finish with the result. Do not redo the steps above unless the page requires it.`,
    ].join('\n\n');
    return { kind: 'diverged', handover, at };
  }
}

function locate(locator: Locator, fill: (text: string) => string): { selector: string } | { text: string } {
  return locator.kind === 'text' ? { text: fill(locator.text) } : { selector: fill(locator.selector) };
}

/** A target as a selector, for the actions whose `text` is what they type. */
function asSelector(target: { selector: string } | { text: string }): string {
  return 'selector' in target ? target.selector : `text=${JSON.stringify(target.text)}`;
}

function describe(step: RecipeStep): string {
  if (step.tool === 'code') return `run ${step.language} code`;
  const target = step.locators?.[0];
  const where = target === undefined ? '' : ` ${target.kind === 'text' ? JSON.stringify(target.text) : target.selector}`;
  switch (step.action) {
    case 'navigate':
      return `navigate to ${step.url ?? ''}`;
    case 'type':
      return `type ${step.text ?? ''} into${where}${step.submit === true ? ' and submit' : ''}`;
    case 'upload':
      return `upload ${(step.files ?? []).map((f) => `files[${f.index}]`).join(', ')} into${where}`;
    case 'press':
      return `press ${step.key ?? ''}`;
    case 'select':
      return `select ${(step.values ?? []).join(', ')} in${where}`;
    case 'drag': {
      const to = step.to_locators?.[0];
      return `drag${where} to ${to === undefined ? '' : to.kind === 'text' ? JSON.stringify(to.text) : to.selector}`;
    }
    case 'scroll':
      return step.text === undefined ? `scroll ${step.direction ?? 'down'}${where}` : `scroll to ${JSON.stringify(step.text)}`;
    case 'wait':
      return step.text === undefined ? `wait ${step.seconds ?? 1} s` : `wait for ${JSON.stringify(step.text)}${step.gone === true ? ' to go' : ''}`;
    case 'dialog':
      return `${step.accept === true ? 'accept' : 'dismiss'} the dialog`;
    case 'tab':
      return `${step.close === true ? 'close' : 'switch to'} tab ${step.index ?? 0}`;
    default:
      return `${step.action}${where}`;
  }
}

function firstLine(text: string): string {
  return text.split('\n')[0] ?? '';
}
