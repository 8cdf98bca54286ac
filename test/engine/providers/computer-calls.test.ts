/**
 * The models' computer-use calls in the neutral computer actions (docs/api.md, "Action spaces"): Anthropic's
 * `computer` tool_use inputs and OpenAI's `computer_call` items, the key names of each, and what is refused in words.
 */
import { describe, expect, it } from 'vitest';
import { fromAnthropicComputer } from '../../../src/engine/providers/anthropic-computer.js';
import { fromOpenAIComputer } from '../../../src/engine/providers/openai-computer.js';
import { ComputerDisplay } from '../../../src/engine/tools/computer-display.js';

describe("Anthropic's computer calls", () => {
  it('reads clicks, with the keys held and without a point', () => {
    expect(fromAnthropicComputer({ action: 'left_click', coordinate: [10, 20], text: 'shift+ctrl' })).toEqual({
      actions: [{ action: 'click', at: { x: 10, y: 20 }, button: 'left', count: 1, modifiers: ['Shift', 'Control'] }],
    });
    expect(fromAnthropicComputer({ action: 'triple_click' })).toEqual({ actions: [{ action: 'click', at: null, button: 'left', count: 3, modifiers: [] }] });
    expect(fromAnthropicComputer({ action: 'right_click', coordinate: [1, 2] })).toMatchObject({ actions: [{ button: 'right', count: 1 }] });
  });

  it("reads xdotool's key names as the browser's, several chords one after another", () => {
    expect(fromAnthropicComputer({ action: 'key', text: 'ctrl+a BackSpace Return' })).toEqual({
      actions: [
        { action: 'key', chord: 'Control+a' },
        { action: 'key', chord: 'Backspace' },
        { action: 'key', chord: 'Enter' },
      ],
    });
    expect(fromAnthropicComputer({ action: 'hold_key', text: 'shift', duration: 2 })).toEqual({ actions: [{ action: 'key', chord: 'Shift', holdSeconds: 2 }] });
    expect(fromAnthropicComputer({ action: 'key', text: 'Page_Down' })).toEqual({ actions: [{ action: 'key', chord: 'PageDown' }] });
  });

  it('reads a drag, a scroll in wheel clicks and the mouse button apart', () => {
    expect(fromAnthropicComputer({ action: 'left_click_drag', start_coordinate: [1, 2], coordinate: [3, 4] })).toEqual({
      actions: [{ action: 'drag', path: [{ x: 1, y: 2 }, { x: 3, y: 4 }], modifiers: [] }],
    });
    expect(fromAnthropicComputer({ action: 'scroll', coordinate: [5, 6], scroll_direction: 'up', scroll_amount: 2 })).toEqual({
      actions: [{ action: 'scroll', at: { x: 5, y: 6 }, dx: 0, dy: -2, unit: 'wheel_clicks' }],
    });
    expect(fromAnthropicComputer({ action: 'left_mouse_down' })).toEqual({ actions: [{ action: 'mouse_down', at: null }] });
  });

  it('says what is wrong with a call it cannot carry out', () => {
    expect(fromAnthropicComputer({ action: 'zoom', region: [0, 0, 10, 10] })).toEqual({ invalid: 'the computer action "zoom" is not supported here' });
    expect(fromAnthropicComputer({ action: 'left_click', coordinate: [1] })).toEqual({ invalid: 'left_click: `coordinate` is [x, y], two numbers' });
    expect(fromAnthropicComputer({ action: 'key', text: 'ctrl+Hyper_Q' })).toEqual({ invalid: 'key: "Hyper_Q" is no key the browser knows' });
    expect(fromAnthropicComputer({ action: 'left_click', coordinate: [1, 2], text: 'q' })).toMatchObject({ invalid: expect.stringContaining('only modifier keys') });
  });
});

describe("OpenAI's computer calls", () => {
  it('reads one action or a batch, with upper-case key names', () => {
    expect(fromOpenAIComputer({ type: 'computer_call', action: { type: 'keypress', keys: ['CTRL', 'A'] } })).toEqual({ actions: [{ action: 'key', chord: 'Control+a' }] });
    expect(
      fromOpenAIComputer({
        type: 'computer_call',
        actions: [
          { type: 'double_click', x: 4, y: 5, keys: null },
          { type: 'scroll', x: 1, y: 2, scroll_x: 0, scroll_y: 300 },
          { type: 'keypress', keys: ['ENTER'] },
        ],
      }),
    ).toEqual({
      actions: [
        { action: 'click', at: { x: 4, y: 5 }, button: 'left', count: 2, modifiers: [] },
        { action: 'scroll', at: { x: 1, y: 2 }, dx: 0, dy: 300, unit: 'pixels' },
        { action: 'key', chord: 'Enter' },
      ],
    });
  });

  it("moves the history with a mouse's back button, and drags through every point", () => {
    expect(fromOpenAIComputer({ action: { type: 'click', button: 'back', x: 1, y: 1 } })).toEqual({ actions: [{ action: 'history', direction: 'back' }] });
    expect(fromOpenAIComputer({ action: { type: 'drag', path: [{ x: 1, y: 1 }, { x: 2, y: 2 }, { x: 3, y: 3 }] } })).toMatchObject({
      actions: [{ action: 'drag', path: [{ x: 1, y: 1 }, { x: 2, y: 2 }, { x: 3, y: 3 }] }],
    });
  });

  it('carries the pending safety checks, which the tool refuses to act past', () => {
    expect(fromOpenAIComputer({ action: { type: 'screenshot' }, pending_safety_checks: [{ id: 'sc_1', code: 'malicious_instructions', message: 'Odd text' }] })).toEqual({
      actions: [{ action: 'screenshot' }],
      safety_checks: [{ code: 'malicious_instructions', message: 'Odd text' }],
    });
  });

  it('says what is wrong with a call it cannot carry out', () => {
    expect(fromOpenAIComputer({})).toEqual({ invalid: 'the computer call carried no action' });
    expect(fromOpenAIComputer({ action: { type: 'click', button: 'left' } })).toEqual({ invalid: 'click needs a point x, y' });
  });
});

describe('the screen a computer run shows its model', () => {
  it("maps a scaled screen's pixels to the page's, the pixel under each one's centre", () => {
    const small = new ComputerDisplay('800x500');
    expect(small.toPage({ x: 0, y: 0 })).toEqual({ x: 0, y: 0 });
    expect(small.toPage({ x: 125, y: 72 })).toEqual({ x: 200, y: 116 });
    expect(small.toPage({ x: 799, y: 499 })).toEqual({ x: 1279, y: 799 });
    expect(small.holds({ x: 800, y: 10 })).toBe(false);
    expect(new ComputerDisplay('1280x800').toPage({ x: 640, y: 400 })).toEqual({ x: 640, y: 400 });
  });
});
