import { describe, expect, it } from 'vitest';
import { InvalidRequestError } from '../../src/errors.js';
import { fillPlaceholders } from '../../src/runs/placeholders.js';

function refusal(fn: () => unknown): InvalidRequestError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(InvalidRequestError);
    return err as InvalidRequestError;
  }
  throw new Error('expected an InvalidRequestError');
}

describe('fillPlaceholders', () => {
  it('inserts strings as they are and other values as JSON', () => {
    const out = fillPlaceholders('{{s}}|{{n}}|{{b}}|{{o}}|{{arr}}', { s: 'Paris "centre"', n: 3.5, b: false, o: { k: 1 }, arr: [1, 'x'] });
    expect(out).toBe('Paris "centre"|3.5|false|{"k":1}|[1,"x"]');
  });

  it('reaches into nested inputs with dots, and fills every occurrence', () => {
    expect(fillPlaceholders('{{u.name}} and {{ u.name }} in {{u.addr.city}}', { u: { name: 'Ana', addr: { city: 'Lyon' } } })).toBe('Ana and Ana in Lyon');
  });

  it('leaves a prompt without placeholders unchanged, whatever the inputs', () => {
    expect(fillPlaceholders('plain {text}', { text: 'x' })).toBe('plain {text}');
  });

  it('takes spaces inside the braces, and leaves alone what is not a placeholder', () => {
    expect(fillPlaceholders('{{ a }}|{{x-y_z}}', { a: 1, 'x-y_z': 2 })).toBe('1|2');
    const notPlaceholders = '{a} {{}} {{ 1abc }} {{a b}} {{.a}} {{a.}} {{{{';
    expect(fillPlaceholders(notPlaceholders, {})).toBe(notPlaceholders);
  });

  it('names the first placeholder without a value, in the order of the prompt', () => {
    expect(refusal(() => fillPlaceholders('{{b}} {{a}} {{b}}', {})).param).toBe('inputs.b');
  });

  it('does not treat a filled value as a new placeholder', () => {
    expect(fillPlaceholders('{{a}}', { a: '{{b}}' })).toBe('{{b}}');
  });

  it('refuses a placeholder without a value, naming inputs.<name>', () => {
    const err = refusal(() => fillPlaceholders('Weather in {{city}} on {{day}}', { city: 'Oslo' }));
    expect(err.code).toBe('missing_input');
    expect(err.param).toBe('inputs.day');
    expect(err.status).toBe(400);
  });

  it('counts null as no value, and an empty string as a value', () => {
    expect(refusal(() => fillPlaceholders('{{a}}', { a: null })).param).toBe('inputs.a');
    expect(fillPlaceholders('[{{a}}]', { a: '' })).toBe('[]');
  });

  it('names the full path of a missing nested value', () => {
    expect(refusal(() => fillPlaceholders('{{u.addr.city}}', { u: { addr: {} } })).param).toBe('inputs.u.addr.city');
    expect(refusal(() => fillPlaceholders('{{u.addr.city}}', { u: 'text' })).param).toBe('inputs.u.addr.city');
  });

  it('never reads inherited members such as constructor or toString', () => {
    expect(refusal(() => fillPlaceholders('{{constructor}}', {})).param).toBe('inputs.constructor');
    expect(refusal(() => fillPlaceholders('{{toString}}', {})).param).toBe('inputs.toString');
    expect(refusal(() => fillPlaceholders('{{a.length}}', { a: 'abc' })).param).toBe('inputs.a.length');
  });
});
