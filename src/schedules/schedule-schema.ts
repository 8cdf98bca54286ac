import { validateDetailed } from 'node-cron';
import { InvalidRequestError } from '../errors.js';
import type { Validated } from '../http-schemas/validated.js';

/** JSON Schema for `schedule`; the jobs routes use it for validation and the OpenAPI document alike. */
export const scheduleSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['cron'],
  properties: {
    cron: {
      type: 'string',
      minLength: 1,
      maxLength: 200,
      description: 'Cron expression with 5 fields (minute resolution) or 6 fields (leading seconds field).',
      examples: ['0 9 * * 1-5'],
    },
    timezone: { type: 'string', default: 'UTC', minLength: 1, maxLength: 100, description: 'IANA time zone the expression is read in.' },
    inputs: { type: 'object', description: 'Inputs every scheduled run of the job receives.' },
    callback_url: { type: ['string', 'null'], maxLength: 2048, description: 'Webhook target for the scheduled runs.' },
    enabled: { type: 'boolean', default: true, description: 'false pauses the schedule without deleting it.' },
    paused_reason: {
      type: ['string', 'null'],
      maxLength: 2000,
      description: 'Read only: why the daemon paused the schedule. Accepted in requests (so a schedule read can be sent back) and ignored.',
    },
  },
} as const;

/**
 * A job's `schedule` member as the API accepts and answers it; validation fills `timezone` and `enabled` before
 * `validateSchedule` runs. `paused_reason` is the daemon's (a change of the job left the schedule's inputs invalid):
 * a schedule sent in a request replaces it.
 */
export type Schedule = Validated<typeof scheduleSchema>;

/**
 * `schedule` where null removes it. A type list rather than `anyOf: [scheduleSchema, null]`: ajv fills defaults
 * (`timezone`, `enabled`) only outside `anyOf`, and its errors name the failing member instead of "must match a
 * schema in anyOf".
 */
export const nullableScheduleSchema = { ...scheduleSchema, type: ['object', 'null'] } as const;

/**
 * `schedule` as a job answers it: what was set, `timezone` and `enabled` filled with their defaults, and
 * `paused_reason` always there (null unless the daemon paused it); null for a job without a schedule.
 */
export const answeredScheduleSchema = {
  type: ['object', 'null'],
  required: ['cron', 'timezone', 'enabled', 'paused_reason'],
  properties: {
    cron: scheduleSchema.properties.cron,
    timezone: { type: 'string', description: scheduleSchema.properties.timezone.description },
    // Open: the response's serializer writes only the members a schema names.
    inputs: { ...scheduleSchema.properties.inputs, additionalProperties: true },
    callback_url: scheduleSchema.properties.callback_url,
    enabled: { type: 'boolean', description: scheduleSchema.properties.enabled.description },
    paused_reason: { type: ['string', 'null'], description: 'Why the daemon paused the schedule (a change of the job left its inputs invalid); null otherwise.' },
  },
} as const;

/** True when `timezone` names a zone this runtime's ICU knows (IANA names such as `Europe/Paris`, `UTC`). */
export function isKnownTimeZone(timezone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: timezone });
    return true;
  } catch {
    return false;
  }
}

/**
 * Checks what the JSON Schema cannot: that node-cron accepts the expression and that the time zone exists.
 * Throws `invalid_schedule` naming the offending member.
 */
export function validateSchedule(schedule: Pick<Schedule, 'cron'> & { timezone?: string }): void {
  const result = validateDetailed(schedule.cron.trim());
  if (!result.valid) {
    const reasons = result.errors.map((e) => e.message).join('; ');
    throw new InvalidRequestError('invalid_schedule', `Invalid cron expression '${schedule.cron}': ${reasons || 'not a valid expression'}.`, {
      param: 'schedule.cron',
    });
  }
  const timezone = schedule.timezone ?? 'UTC';
  if (!isKnownTimeZone(timezone)) {
    throw new InvalidRequestError('invalid_schedule', `Unknown time zone '${timezone}'; use an IANA name such as 'Europe/Paris' or 'UTC'.`, {
      param: 'schedule.timezone',
    });
  }
}
