import { describe, expect, it } from 'vitest';
import { dateFieldValue } from '../../templates/sandbox/supervisor/date-input.js';

describe('dateFieldValue', () => {
  it('reads dates as people write them, into the ISO form a date field takes', () => {
    for (const text of ['2010-03-31', '03/31/2010', '3/31/10', '31.03.2010', '31/03/2010', 'March 31, 2010', 'Mar 31 2010', '31 March 2010', '31st March 2010']) {
      expect(dateFieldValue('date', text), text).toEqual({ value: '2010-03-31', reading: null });
    }
  });

  it('says how it read a slashed date whose numbers could both be a month', () => {
    expect(dateFieldValue('date', '04/05/2011')).toEqual({ value: '2011-04-05', reading: 'read 04/05/2011 as month/day/year' });
    expect(dateFieldValue('date', '05/05/2011')).toEqual({ value: '2011-05-05', reading: null });
  });

  it('reads times with AM and PM, and with seconds', () => {
    expect(dateFieldValue('time', '10:22 PM')).toEqual({ value: '22:22', reading: null });
    expect(dateFieldValue('time', '12:05am')).toEqual({ value: '00:05', reading: null });
    expect(dateFieldValue('time', '12 p.m.')).toEqual({ value: '12:00', reading: null });
    expect(dateFieldValue('time', '22:22:05')).toEqual({ value: '22:22:05', reading: null });
  });

  it('reads a date and time, a month and a week', () => {
    expect(dateFieldValue('datetime-local', '03/31/2010 10:22 PM')).toEqual({ value: '2010-03-31T22:22', reading: null });
    expect(dateFieldValue('datetime-local', '2010-03-31T22:22')).toEqual({ value: '2010-03-31T22:22', reading: null });
    expect(dateFieldValue('month', 'March 2010')).toEqual({ value: '2010-03', reading: null });
    expect(dateFieldValue('month', '03/2010')).toEqual({ value: '2010-03', reading: null });
    expect(dateFieldValue('week', '2010-W13')).toEqual({ value: '2010-W13', reading: null });
    expect(dateFieldValue('week', '2010-01-03')).toEqual({ value: '2009-W53', reading: 'the week of 2010-01-03' });
  });

  it('refuses what is not a date or time, and dates that do not exist, with the forms it takes', () => {
    expect(dateFieldValue('date', 'next Tuesday')).toEqual({ error: '"next Tuesday" is not a date; write it as 2010-03-31, 03/31/2010 or March 31, 2010' });
    expect(dateFieldValue('date', '02/30/2010')).toHaveProperty('error');
    expect(dateFieldValue('time', '25:00')).toHaveProperty('error');
    expect(dateFieldValue('time', '13:00 PM')).toHaveProperty('error');
    expect(dateFieldValue('week', '2010-W54')).toHaveProperty('error');
  });
});
