import type { KeyModifier, MouseButton } from '../sandbox/protocol.js';

/**
 * The computer action space's actions, as every provider turns its API's computer-use calls into them (Anthropic's
 * `computer` tool_use, OpenAI's `computer_call`) and the computer tool carries them out: the one form between the
 * two, so that neither knows the other. Points are in the pixels of the screen the model sees (its display).
 */

/** A pixel of the model's screen. */
export interface ScreenPoint {
  x: number;
  y: number;
}

export type ComputerAction =
  | { action: 'screenshot' }
  /** `at` null: where the pointer is. */
  | { action: 'click'; at: ScreenPoint | null; button: MouseButton; count: 1 | 2 | 3; modifiers: KeyModifier[] }
  | { action: 'move'; at: ScreenPoint }
  | { action: 'mouse_down'; at: ScreenPoint | null }
  | { action: 'mouse_up'; at: ScreenPoint | null }
  /** From the first point to the last, through the others. */
  | { action: 'drag'; path: ScreenPoint[]; modifiers: KeyModifier[] }
  /** `dx`, `dy` in the screen's pixels, or in clicks of a mouse wheel. */
  | { action: 'scroll'; at: ScreenPoint | null; dx: number; dy: number; unit: 'pixels' | 'wheel_clicks' }
  | { action: 'type'; text: string }
  /** A key or chord in Playwright's names (`Control+a`, `Enter`), held `holdSeconds` when given. */
  | { action: 'key'; chord: string; holdSeconds?: number }
  /** The browser's history, as a mouse's back and forward buttons move it. */
  | { action: 'history'; direction: 'back' | 'forward' }
  | { action: 'wait'; seconds: number }
  | { action: 'cursor_position' };

export type ComputerActionName = ComputerAction['action'];

/** A check the model's API asks the caller to acknowledge before an action is carried out (OpenAI's). */
export interface SafetyCheck {
  code: string;
  message: string;
}

/**
 * The input of a computer tool_use in the neutral format: the actions of one call, in order (OpenAI batches several),
 * and the API's safety checks of it. A call a provider could not read has `invalid` instead, which the tool answers.
 */
export type ComputerCallInput =
  | { actions: ComputerAction[]; safety_checks?: SafetyCheck[] }
  | { invalid: string };
