import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RENAMED_KEYS } from '../../src/config/renamed-keys.js';
import { CONFIG_KEYS, envName } from '../../src/config/schema.js';
import { parseSandboxHosts, SANDBOX_HOST_MEMBERS } from '../../src/sandbox/docker/sandbox-hosts.js';

const doc = readFileSync(new URL('../../docs/configuration.md', import.meta.url), 'utf8');
const keysSection = doc.slice(doc.indexOf('## Keys'), doc.indexOf('\n## ', doc.indexOf('## Keys') + 1));
const rows = new Map(
  keysSection
    .split('\n')
    .filter((l) => l.startsWith('| `'))
    .map((l) => {
      const cells = l.split(' | ');
      return [cells[0]!.replace(/^\| `|`$/g, ''), l] as const;
    }),
);

describe('docs/configuration.md', () => {
  it.each(Object.entries(CONFIG_KEYS))('documents %s with its variable and default', (key, spec) => {
    const row = rows.get(key);
    expect(row, `no row for ${key}`).toBeDefined();
    expect(row).toContain(`\`${envName(key)}\``);
    expect(row).toContain(spec.default === null ? '(none)' : `\`${spec.default}\``);
  });

  it('documents no key that does not exist', () => {
    expect([...rows.keys()].filter((k) => !(k in CONFIG_KEYS))).toEqual([]);
  });

  it('lists every renamed key, with its old variable and its new name, and no other', () => {
    const start = doc.indexOf('## Renamed keys');
    const section = doc.slice(start, doc.indexOf('\n## ', start + 1));
    const listed = section
      .split('\n')
      .filter((l) => l.startsWith('| `'))
      .map((l) => l.split(' | ').map((cell) => /`([^`]+)`/.exec(cell)?.[1]));
    expect(listed.map(([old, variable, now]) => [old, variable, now])).toEqual(Object.entries(RENAMED_KEYS).map(([old, now]) => [old, envName(old), now]));
  });

  it('documents every member of a sandbox.hosts entry, and no other, with an example the daemon reads', () => {
    const start = doc.indexOf('## Several Docker engines');
    const section = doc.slice(start, doc.indexOf('\n## ', start + 1));
    const members = section
      .split('\n')
      .filter((l) => l.startsWith('| `'))
      .map((l) => l.split(' | ')[0]!.replace(/^\| `|`$/g, ''));
    expect(members).toEqual([...SANDBOX_HOST_MEMBERS]);
    const example = JSON.parse(/```json\n([\s\S]*?)```/.exec(section)![1]!) as { 'sandbox.hosts': Record<string, unknown> };
    expect(parseSandboxHosts(example['sandbox.hosts'], { memoryMbPerRun: 2048 }).map((host) => `${host.name} ${host.kind}`)).toEqual(['local unix', 'big tcp', 'far ssh']);
  });
});
