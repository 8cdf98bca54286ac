/**
 * How the agent works a page (docs/api.md, "Action spaces"): `dom`, the browser tool's snapshots, references and
 * element actions; `computer`, the model API's own computer-use tool (screenshots in, mouse and keyboard at the
 * screenshot's pixels out), which only some models have (models.ts, `computerToolOf`). Runs, jobs and job runs choose
 * one; the run row keeps it.
 */
export const ACTION_SPACES = ['dom', 'computer'] as const;
export type ActionSpace = (typeof ACTION_SPACES)[number];

/** What a run or job gets when it names none. */
export const DEFAULT_ACTION_SPACE: ActionSpace = 'dom';

/** The JSON Schema of an `action_space` member: validation and the OpenAPI enum alike. */
export const actionSpaceSchema = {
  type: 'string',
  enum: ACTION_SPACES,
  description:
    "dom (default): the browser tool, with the page's elements by reference; computer: the model's own computer-use tool, screenshots and coordinates (only models that have one: docs/api.md, Action spaces). A run's wins over its job's.",
} as const;

/**
 * The browser's viewport in CSS pixels, which every page of a sandbox has: the supervisor's VIEWPORT
 * (templates/sandbox/supervisor/page-actions.ts), which cannot import it; a test holds the two equal.
 */
export const BROWSER_VIEWPORT = { width: 1280, height: 800 } as const;

/**
 * The sizes of the screen a `computer` run's model sees (`computer.display`): the browser's 1280x800 viewport, or it
 * scaled down with its 16:10 kept, which costs fewer image tokens for less detail. Its coordinates map back to the
 * page's CSS pixels in one place (engine/tools/computer-display.ts).
 */
export const COMPUTER_DISPLAYS = ['1280x800', '1024x640', '800x500'] as const;
export type ComputerDisplaySize = (typeof COMPUTER_DISPLAYS)[number];

/** What `computer.display` is unless the operator sets it: the viewport itself, unscaled. */
export const DEFAULT_COMPUTER_DISPLAY: ComputerDisplaySize = '1280x800';
