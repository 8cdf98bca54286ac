import { describe, expect, it } from 'vitest';
import { plural } from '../../src/text/plural.js';

describe('plural', () => {
  it('says one of a unit in the singular, and any other count in the plural', () => {
    expect(plural(1, 'file')).toBe('1 file');
    expect(plural(0, 'file')).toBe('0 files');
    expect(plural(2, 'day')).toBe('2 days');
    expect(plural(1, 'entry', 'entries')).toBe('1 entry');
    expect(plural(3, 'entry', 'entries')).toBe('3 entries');
  });
});
