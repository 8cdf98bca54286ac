import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { InvalidRequestError } from '../../src/errors.js';
import { scheduleSchema, validateSchedule } from '../../src/schedules/schedule-schema.js';

function rejection(schedule: { cron: string; timezone?: string }): InvalidRequestError {
  try {
    validateSchedule(schedule);
  } catch (err) {
    expect(err).toBeInstanceOf(InvalidRequestError);
    return err as InvalidRequestError;
  }
  throw new Error(`expected ${JSON.stringify(schedule)} to be refused`);
}

describe('validateSchedule', () => {
  it.each(['0 9 * * 1-5', '*/15 * * * *', '* * * * * *', '30 0 9 * * MON', '0 0 1 1 *'])('accepts %s', (cron) => {
    expect(() => validateSchedule({ cron, timezone: 'Europe/Paris' })).not.toThrow();
  });

  it.each(['61 * * * *', '* * * *', '* * * * * * *', 'every day', '0 25 * * *', ''])('answers 400 invalid_schedule for the cron %j', (cron) => {
    const err = rejection({ cron });
    expect(err).toMatchObject({ status: 400, code: 'invalid_schedule', param: 'schedule.cron' });
    expect(err.message).toContain('Invalid cron expression');
  });

  it.each(['Mars/Olympus_Mons', 'Europe/Pariss', '+01:00', ''])('answers 400 for the time zone %j', (timezone) => {
    const err = rejection({ cron: '0 9 * * *', timezone });
    expect(err).toMatchObject({ status: 400, code: 'invalid_schedule', param: 'schedule.timezone' });
    expect(err.message).toContain('Unknown time zone');
  });

  it('reads a missing time zone as UTC', () => {
    expect(() => validateSchedule({ cron: '0 9 * * *' })).not.toThrow();
  });
});

describe('scheduleSchema', () => {
  const validate = new Ajv({ useDefaults: true, strict: false }).compile(scheduleSchema);

  it('fills timezone and enabled defaults', () => {
    const value: Record<string, unknown> = { cron: '0 9 * * *' };
    expect(validate(value)).toBe(true);
    expect(value).toEqual({ cron: '0 9 * * *', timezone: 'UTC', enabled: true });
  });

  it('accepts inputs, a callback_url or null, and refuses unknown members or a missing cron', () => {
    expect(validate({ cron: '* * * * *', inputs: { city: 'Paris' }, callback_url: 'https://example.com/h', enabled: false })).toBe(true);
    expect(validate({ cron: '* * * * *', callback_url: null })).toBe(true);
    expect(validate({ cron: '* * * * *', every: 'day' })).toBe(false);
    expect(validate({ timezone: 'UTC' })).toBe(false);
    expect(validate({ cron: '* * * * *', inputs: 'x' })).toBe(false);
  });
});
