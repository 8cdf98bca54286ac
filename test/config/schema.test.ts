import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CONFIG_KEYS, envName, type KeySpec } from '../../src/config/schema.js';

const DOC = fileURLToPath(new URL('../../docs/configuration.md', import.meta.url));

/** The rows of the keys table: `| \`key\` | \`ENV\` | type | default | meaning |` (five cells; the renamed keys' table has three). */
function documentedKeys(): Map<string, { env: string; default: string }> {
  const rows = new Map<string, { env: string; default: string }>();
  for (const line of readFileSync(DOC, 'utf8').split('\n')) {
    // Cells split on pipes that are not escaped (enum types read `a` \| `b`).
    const cells = line.split(/(?<!\\)\|/).map((c) => c.trim());
    const key = /^`([^`]+)`$/.exec(cells[1] ?? '');
    const env = /^`(ERRAND_[A-Z0-9_]+)`$/.exec(cells[2] ?? '');
    if (key && env && cells.length >= 7) rows.set(key[1]!, { env: env[1]!, default: cells[4] ?? '' });
  }
  return rows;
}

describe('docs/configuration.md', () => {
  const rows = documentedKeys();

  it('documents every configuration key, and no other', () => {
    expect([...rows.keys()].sort()).toEqual(Object.keys(CONFIG_KEYS).sort());
  });

  it('names the environment variable of each key', () => {
    for (const key of Object.keys(CONFIG_KEYS)) expect(rows.get(key)?.env, key).toBe(envName(key));
  });

  it('states the default of each key', () => {
    for (const [key, spec] of Object.entries(CONFIG_KEYS) as [string, KeySpec][]) {
      const expected = spec.default === null ? '(none)' : `\`${String(spec.default)}\``;
      expect(rows.get(key)?.default, key).toBe(expected);
    }
  });
});
