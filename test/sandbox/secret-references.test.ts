import { describe, expect, it } from 'vitest';
import { fillSecretReferences } from '../../templates/sandbox/supervisor/secret-references.js';
import { parseBrowserAction } from '../../templates/sandbox/supervisor/request-validation.js';

describe('fillSecretReferences', () => {
  it('puts each secret where the text refers to it', () => {
    expect(fillSecretReferences('{{secret:shop}} and {{ secret:pin }}!', { shop: 'pa$$word', pin: '1234' })).toBe('pa$$word and 1234!');
  });

  it('types a value with $ patterns as it is', () => {
    expect(fillSecretReferences('{{secret:a}}', { a: "$&$1$'" })).toBe("$&$1$'");
  });

  it('refuses a reference the request carried no value for, rather than typing the placeholder', () => {
    expect(() => fillSecretReferences('{{secret:missing}}', {})).toThrow(/\{\{secret:missing\}\}/);
  });
});

describe('parseBrowserAction with secrets', () => {
  it('takes secrets with a type or type_text action only, as strings', () => {
    expect(parseBrowserAction({ action: 'type', selector: '#pw', text: '{{secret:a}}', secrets: { a: 'x' } })).toEqual({ action: 'type', selector: '#pw', text: '{{secret:a}}', secrets: { a: 'x' } });
    expect(() => parseBrowserAction({ action: 'navigate', url: 'http://x.test', secrets: { a: 'x' } })).toThrow('secrets come only with a type or type_text action');
    expect(() => parseBrowserAction({ action: 'type', selector: '#pw', text: 't', secrets: { a: 1 } })).toThrow(/object of strings/);
  });
});
