import { describe, expect, it } from 'vitest';
import { uniqueToolName } from '../../../src/connections/mcp-client/mcp-tool-name.js';

describe('uniqueToolName', () => {
  it('is <connection>__<tool>', () => {
    expect(uniqueToolName('crm', 'get-contact', new Set())).toBe('crm__get-contact');
  });

  it('replaces characters model APIs refuse in tool names', () => {
    expect(uniqueToolName('crm', 'contacts.search v2', new Set())).toBe('crm__contacts_search_v2');
  });

  it('shortens long names to 64 characters with a hash, and keeps names unique', () => {
    const taken = new Set<string>();
    const long = uniqueToolName('a-rather-long-connection-name-here', 'and_an_even_longer_tool_name_that_goes_on', taken);
    expect(long).toHaveLength(64);
    expect(long).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(uniqueToolName('crm', 'a.b', taken)).toBe('crm__a_b');
    const clash = uniqueToolName('crm', 'a b', taken);
    expect(clash).not.toBe('crm__a_b');
    expect(clash).toMatch(/^crm__a_b_[0-9a-f]{8}$/);
  });
});
