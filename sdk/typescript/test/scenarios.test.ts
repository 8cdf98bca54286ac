import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SCENARIOS = fileURLToPath(new URL('../../scenarios.md', import.meta.url));
const TESTS = fileURLToPath(new URL('.', import.meta.url));

describe('sdk/scenarios.md', () => {
  it('has a test named after each of its scenarios, and no test names a scenario it lacks', () => {
    const listed = [...readFileSync(SCENARIOS, 'utf8').matchAll(/^- \*\*(S\d{2})\*\*/gm)].map((m) => m[1]!);
    expect(listed.length).toBeGreaterThanOrEqual(10);
    const named = new Set(
      readdirSync(TESTS)
        .filter((f) => f.endsWith('.test.ts'))
        .flatMap((f) => [...readFileSync(`${TESTS}/${f}`, 'utf8').matchAll(/\bit\(\s*['"`](S\d{2}) /g)].map((m) => m[1]!)),
    );
    expect([...named].sort()).toEqual([...new Set(listed)].sort());
  });
});
