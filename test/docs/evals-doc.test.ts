import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MATCHER_NAMES, MATCHER_SCOPES, MATCHERS } from '../../src/evals/matchers.js';

const doc = readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8');

/** The rows of the matcher table under "## Evaluations", as written. */
function documentedRows(): string[] {
  const start = doc.indexOf('## Evaluations');
  const section = doc.slice(start, doc.indexOf('\n## ', start + 1));
  return section.split('\n').filter((line) => line.startsWith('  | `'));
}

describe('docs/api.md, Evaluations', () => {
  it("lists exactly the matchers of src/evals/matchers.ts, each with what it applies to and when it passes", () => {
    expect(documentedRows()).toEqual(MATCHER_NAMES.map((name) => `  | \`${name}\` | ${MATCHER_SCOPES[MATCHERS[name].applies]} | ${MATCHERS[name].description} |`));
  });
});
