import type { MemberRule, MemberType } from './recipe.js';
import { fromPlaceholders, toPlaceholders, type InputValue } from './input-placeholders.js';

/** The lines of a page's text (body innerText), trimmed, without empty ones. */
export function pageLines(text: string): string[] {
  return text.split('\n').map((l) => l.trim()).filter((l) => l !== '');
}

/**
 * How a run's result was read, member by member, from the final page's text or from the JSON a code step printed:
 * null (with why) when a member cannot be traced (a nested object, a value on no line, a judgement such as a
 * boolean no text states). Code output wins, since it is what a program computed.
 */
export function extractionOf(
  result: Record<string, unknown>,
  pageText: string | null,
  codeOutputs: { step: number; json: Record<string, unknown> }[],
  values: readonly InputValue[],
): { rules: Record<string, MemberRule> } | { why: string } {
  const rules: Record<string, MemberRule> = {};
  const lines = pageText === null ? [] : pageLines(pageText);
  for (const [key, value] of Object.entries(result)) {
    const type = typeOf(value);
    if (type === null) return { why: `the result's ${key} is not a string, number or boolean` };
    const fromCode = [...codeOutputs].reverse().find((o) => Object.hasOwn(o.json, key) && o.json[key] === value);
    if (fromCode !== undefined) {
      rules[key] = { from: 'code_output', type, step: fromCode.step, key };
      continue;
    }
    if (type === 'boolean') return { why: `the result's ${key} is a boolean no code step printed: a judgement a replay cannot repeat` };
    const rule = lineRule(lines, value as string | number, type, values);
    if (rule === null) return { why: `the result's ${key} is on no line of the final page and in no code step's output` };
    rules[key] = rule;
  }
  return { rules };
}

function typeOf(value: unknown): MemberType | null {
  if (typeof value === 'string') return 'string';
  if (typeof value === 'number') return 'number';
  if (typeof value === 'boolean') return 'boolean';
  return null;
}

function lineRule(lines: string[], value: string | number, type: MemberType, values: readonly InputValue[]): MemberRule | null {
  const forms = typeof value === 'string' ? [value] : numberForms(value);
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i]!;
    for (const form of forms) {
      const at = findNumberSafe(line, form, typeof value === 'number');
      if (at < 0) continue;
      const prefix = line.slice(0, at);
      const suffix = line.slice(at + form.length);
      if (prefix === '' && suffix === '') {
        // A line that is the value alone (a heading): found by the line before it, when that one says something.
        const before = i > 0 ? lines[i - 1]! : null;
        if (before === null) return null;
        return { from: 'page_text', type, prefix: '', suffix: '', before: toPlaceholders(before, values) };
      }
      return { from: 'page_text', type, prefix: toPlaceholders(prefix, values), suffix: toPlaceholders(suffix, values), before: null };
    }
  }
  return null;
}

/** 12.5 is printed "12.5", "12.50" or "12,50"; 1200 also "1,200". */
function numberForms(n: number): string[] {
  const forms = new Set([String(n), n.toFixed(2), n.toFixed(2).replace('.', ','), n.toLocaleString('en-US'), n.toLocaleString('en-US', { minimumFractionDigits: 2 })]);
  return [...forms].sort((a, b) => b.length - a.length);
}

/** Where `form` is in `line`; a number must not be part of a longer one (12 in 123). */
function findNumberSafe(line: string, form: string, numeric: boolean): number {
  let from = 0;
  for (;;) {
    const at = line.indexOf(form, from);
    if (at < 0 || !numeric) return at;
    const before = line[at - 1] ?? '';
    const after = line[at + form.length] ?? '';
    if (!/[\d.,]/.test(before) && !/\d/.test(after) && !/[.,]\d/.test(line.slice(at + form.length, at + form.length + 2))) return at;
    from = at + 1;
  }
}

/** The result a recipe's rules read from the final page's text and the code steps' output, or why a member failed. */
export function extractResult(
  rules: Record<string, MemberRule>,
  pageText: string | null,
  codeOutputs: Map<number, string>,
  values: readonly InputValue[],
): { result: Record<string, unknown>; matched: string[] } | { why: string } {
  const lines = pageText === null ? [] : pageLines(pageText);
  const result: Record<string, unknown> = {};
  const matched: string[] = [];
  for (const [key, rule] of Object.entries(rules)) {
    if (rule.from === 'code_output') {
      const json = jsonOf(codeOutputs.get(rule.step) ?? '');
      if (json === null || !Object.hasOwn(json, rule.key)) return { why: `the code step ${rule.step + 1} printed no ${rule.key}` };
      result[key] = json[rule.key];
      continue;
    }
    const read = readLine(lines, rule, values);
    if (read === null) return { why: `no line of the final page gives ${key} as the recipe reads it` };
    const { raw, line } = read;
    if (!matched.includes(line)) matched.push(line);
    const value = typed(raw, rule.type);
    if (value === null) return { why: `${JSON.stringify(raw)} on the final page is not a ${rule.type} (${key})` };
    result[key] = value;
  }
  return { result, matched };
}

function readLine(lines: string[], rule: Extract<MemberRule, { from: 'page_text' }>, values: readonly InputValue[]): { raw: string; line: string } | null {
  if (rule.before !== null) {
    const before = fromPlaceholders(rule.before, values);
    const at = lines.findIndex((l, i) => i > 0 && lines[i - 1] === before);
    return at < 0 ? null : { raw: lines[at]!, line: lines[at]! };
  }
  const prefix = fromPlaceholders(rule.prefix, values);
  const suffix = fromPlaceholders(rule.suffix, values);
  const line = lines.find((l) => l.startsWith(prefix) && l.endsWith(suffix) && l.length > prefix.length + suffix.length);
  return line === undefined ? null : { raw: line.slice(prefix.length, line.length - suffix.length).trim(), line };
}

function typed(raw: string, type: MemberType): unknown {
  if (type === 'string') return raw;
  if (type === 'boolean') return null;
  const normalised = /^\d{1,3}(,\d{3})+(\.\d+)?$/.test(raw) ? raw.replaceAll(',', '') : raw.replace(/^(\d+),(\d{1,2})$/, '$1.$2');
  if (!/^-?\d+(\.\d+)?$/.test(normalised)) return null;
  // An integer on this page may be a fraction on the next (20, then 19.99): the output_schema judges, not the recipe.
  return Number(normalised);
}

/** The JSON object a program printed: its whole stdout, or its last line. */
export function jsonOf(stdout: string): Record<string, unknown> | null {
  for (const candidate of [stdout.trim(), stdout.trim().split('\n').at(-1) ?? '']) {
    try {
      const parsed: unknown = JSON.parse(candidate);
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
    } catch {
      // not JSON
    }
  }
  return null;
}
