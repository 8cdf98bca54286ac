/**
 * The docs users read (the README, the guides in docs/ but the developers' map, the SDKs' READMEs) speak of the
 * product as it is: no issue numbers, which mean nothing to a reader outside the project. docs/architecture.md, for
 * developers, may cite them, as code comments do.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FOR_DEVELOPERS = new Set(['docs/architecture.md']);

const USER_DOCS = [
  'README.md',
  ...readdirSync(`${ROOT}docs`)
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
  ...readdirSync(`${ROOT}sdk`, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => `sdk/${entry.name}/README.md`),
].filter((path) => !FOR_DEVELOPERS.has(path));

/** "issue 26", "issues 21 and 22", "Issue #7", "(#10)". */
const ISSUE_NUMBER = /\bissues?\s*#?\s*\d+|(?:^|[\s(])#\d+\b/gim;

describe('user-facing docs', () => {
  it('are the README, the guides and the SDK READMEs', () => {
    expect(USER_DOCS).toEqual(expect.arrayContaining(['README.md', 'docs/api.md', 'docs/configuration.md', 'docs/operations.md', 'docs/integrate.md', 'docs/mcp.md', 'docs/scale-out.md', 'sdk/python/README.md', 'sdk/typescript/README.md']));
    expect(USER_DOCS).not.toContain('docs/architecture.md');
  });

  it.each(USER_DOCS)('%s cites no issue number', (path) => {
    const lines = readFileSync(`${ROOT}${path}`, 'utf8').split('\n');
    const cited = lines.flatMap((line, i) => [...line.matchAll(ISSUE_NUMBER)].map((m) => `${path}:${i + 1}: ${m[0].trim()}`));
    expect(cited).toEqual([]);
  });
});
