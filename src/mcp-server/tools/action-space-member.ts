import { ACTION_SPACES } from '../../vocabulary/action-spaces.js';

/** `action_space` as run_task and run_job take it, in words an assistant can choose by. */
export const actionSpaceMember = {
  type: 'string',
  enum: ACTION_SPACES,
  description:
    "How the agent works web pages: dom (the default) reads a page's elements and acts on them by reference; computer uses the model's own computer-use tool, screenshots and mouse clicks at coordinates, for pages whose elements do not say what they are (canvas apps, maps). Only models with such a tool take computer; others are refused.",
} as const;
