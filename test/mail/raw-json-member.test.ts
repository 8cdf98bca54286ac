import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rawJsonMember } from '../../src/mail/raw-json-member.js';

describe('rawJsonMember', () => {
  it("answers a member's text exactly as written: key order, number spelling and escapes kept", () => {
    const source = '{"to":"a@b.c", "metadata" : {"b":1,"2":"x","1":1.50,"e":"\\u00e9\\"}"} ,"subject":"s"}';
    expect(rawJsonMember(source, 'metadata')).toBe('{"b":1,"2":"x","1":1.50,"e":"\\u00e9\\"}"}');
  });

  it('ignores nested members of the same name and strings that look like keys, and takes the last duplicate', () => {
    expect(rawJsonMember('{"a":{"metadata":1},"s":"\\"metadata\\":2","metadata":[1, 2]}', 'metadata')).toBe('[1, 2]');
    expect(rawJsonMember('{"metadata":1,"metadata":{"x":true}}', 'metadata')).toBe('{"x":true}');
    expect(rawJsonMember('{"a":1}', 'metadata')).toBeUndefined();
  });

  it('answers text that parses to the member, for any JSON object', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.dictionary(fc.string(), fc.jsonValue()), fc.boolean(), (value, others, pretty) => {
        const { metadata: _, ...rest } = others;
        const source = JSON.stringify({ ...rest, metadata: value, after: rest }, null, pretty ? 2 : undefined);
        const raw = rawJsonMember(source, 'metadata');
        expect(JSON.parse(raw!)).toEqual(JSON.parse(JSON.stringify(value)));
      }),
    );
  });
});
