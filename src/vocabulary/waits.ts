/**
 * What a running run can wait for, defined once: the store's columns, the API's schemas, the tools and the CLI
 * derive from these lists (issue 32, item 4; docs/api.md, "What a run waits for").
 */

/** A run's waitpoint: a person's answer (request_human), a person's control of the browser, an email. */
export const WAITPOINT_KINDS = ['person', 'takeover', 'email'] as const;
export type WaitpointKind = (typeof WAITPOINT_KINDS)[number];

/** How a waitpoint ended, or that it still waits. */
export const WAITPOINT_STATUSES = ['waiting', 'completed', 'expired', 'abandoned'] as const;
export type WaitpointStatus = (typeof WAITPOINT_STATUSES)[number];

/** Whether the run's timeout_s runs while it waits, or stops (a person has human_timeout_s of their own). */
export const WAITPOINT_TIMERS = ['runs', 'stopped'] as const;
export type WaitpointTimer = (typeof WAITPOINT_TIMERS)[number];

/** What the agent may ask a person for (the request_human tool). */
export const HUMAN_KINDS = ['takeover', 'answer', 'approve'] as const;
export type HumanKind = (typeof HUMAN_KINDS)[number];

/** What blocks the agent when it asks for a takeover; it decides the failure_reason when nobody comes. */
export const HUMAN_OBSTACLES = ['captcha', 'login', 'other'] as const;
export type HumanObstacle = (typeof HUMAN_OBSTACLES)[number];

/** Where an answer came from, as the agent and the events are told. */
export const ANSWER_CHANNELS = ['api', 'cli', 'mcp', 'email', 'live'] as const;
export type AnswerChannel = (typeof ANSWER_CHANNELS)[number];
