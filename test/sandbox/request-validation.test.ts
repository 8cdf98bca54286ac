import { describe, expect, it } from 'vitest';
import { parseBrowserAction, parseLiveInput } from '../../templates/sandbox/supervisor/request-validation.js';

describe('parseBrowserAction', () => {
  it('takes an element by exactly one of ref, selector and text, or a point', () => {
    expect(parseBrowserAction({ action: 'click', ref: 'f2e14', modifiers: ['Shift', 'Shift'], clickCount: 2 })).toEqual({ action: 'click', ref: 'f2e14', modifiers: ['Shift'], clickCount: 2 });
    expect(parseBrowserAction({ action: 'hover', x: 3, y: 4 })).toEqual({ action: 'hover', x: 3, y: 4 });
    expect(parseBrowserAction({ action: 'type', ref: 'e1', text: 'hi' })).toEqual({ action: 'type', ref: 'e1', text: 'hi' });
    expect(() => parseBrowserAction({ action: 'click', ref: 'e1', selector: '#a' })).toThrow('give exactly one of ref, selector and text');
    expect(() => parseBrowserAction({ action: 'type', text: 'hi' })).toThrow('give exactly one of ref, selector and text');
    expect(() => parseBrowserAction({ action: 'click', ref: 'e1', x: 1, y: 2 })).toThrow('give an element (ref, selector or text) or a point (x, y), not both');
    expect(() => parseBrowserAction({ action: 'click', ref: 'e1"]' })).toThrow('ref must be a reference from a snapshot, such as e12');
    expect(() => parseBrowserAction({ action: 'click', x: -1, y: 2 })).toThrow(/x must be a number from 0/);
  });

  it('checks the new actions’ members', () => {
    expect(parseBrowserAction({ action: 'drag', ref: 'e1', to: { x: 5, y: 6 } })).toEqual({ action: 'drag', ref: 'e1', to: { x: 5, y: 6 } });
    expect(parseBrowserAction({ action: 'scroll', direction: 'left', at: { ref: 'e3' } })).toEqual({ action: 'scroll', direction: 'left', at: { ref: 'e3' } });
    expect(parseBrowserAction({ action: 'scroll', toText: 'Reviews' })).toEqual({ action: 'scroll', toText: 'Reviews' });
    expect(parseBrowserAction({ action: 'wait', text: 'Done', gone: true, seconds: 3 })).toEqual({ action: 'wait', text: 'Done', gone: true, seconds: 3 });
    expect(parseBrowserAction({ action: 'tab', index: 2, close: true })).toEqual({ action: 'tab', index: 2, close: true });
    expect(parseBrowserAction({ action: 'dialog', accept: false })).toEqual({ action: 'dialog', accept: false });
    expect(() => parseBrowserAction({ action: 'select', ref: 'e1', values: [] })).toThrow('values must be a list of 1 to 100 strings');
    expect(() => parseBrowserAction({ action: 'click', ref: 'e1', button: 'back' })).toThrow('button must be one of left, right, middle');
    expect(() => parseBrowserAction({ action: 'wait', seconds: 31 })).toThrow('seconds must be a number from 0 to 30');
    expect(() => parseBrowserAction({ action: 'wait' })).toThrow('wait needs a text or seconds');
    expect(() => parseBrowserAction({ action: 'dialog', accept: 'yes' })).toThrow('accept must be a boolean');
    expect(() => parseBrowserAction({ action: 'hover', ref: 'e1', holdSubmit: true })).toThrow('holdSubmit comes only with click, type, press and type_text');
  });
});

describe('parseLiveInput', () => {
  it("takes a person's choice of tab by its index", () => {
    expect(parseLiveInput({ type: 'tab', index: 1 })).toEqual({ type: 'tab', index: 1 });
    expect(() => parseLiveInput({ type: 'tab', index: 'one' })).toThrow('index must be an integer from 0 to 1000');
  });
});
