import { describe, expect, it } from 'vitest';
import { BadRequest, parseRecordingFinish, parseRecordingStart } from '../../templates/sandbox/supervisor/request-validation.js';

describe('the supervisor\'s recording requests', () => {
  it('start takes an empty object and nothing else', () => {
    expect(() => parseRecordingStart({})).not.toThrow();
    expect(() => parseRecordingStart({ video: true })).toThrow(BadRequest);
    expect(() => parseRecordingStart([])).toThrow(/JSON object/);
  });

  it('finish takes the mask as forms with their labels', () => {
    expect(parseRecordingFinish({ mask: [] })).toEqual({ mask: [] });
    expect(parseRecordingFinish({ mask: [{ form: 'pw', label: '[secret:shop]' }] })).toEqual({ mask: [{ form: 'pw', label: '[secret:shop]' }] });
  });

  it('refuses a mask that is not a bounded list of non-empty forms, and members it does not know', () => {
    expect(() => parseRecordingFinish({})).toThrow(/mask must be an array/);
    expect(() => parseRecordingFinish({ mask: 'pw' })).toThrow(/mask must be an array/);
    expect(() => parseRecordingFinish({ mask: Array.from({ length: 10_001 }, () => ({ form: 'a', label: 'b' })) })).toThrow(/at most 10000/);
    expect(() => parseRecordingFinish({ mask: [{ form: '', label: 'x' }] })).toThrow(/must not be empty/);
    expect(() => parseRecordingFinish({ mask: [{ form: 'pw' }] })).toThrow(/label must be a string/);
    expect(() => parseRecordingFinish({ mask: [], path: '/etc/passwd' })).toThrow(/unknown member path/);
  });
});
