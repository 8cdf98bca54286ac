import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EVENT_TYPES, RUN_ID_USES, WEBHOOK_SIGNERS, WEBHOOK_TARGETS, eventSpec, type EventType } from '../../src/event-log/event-catalogue.js';

const doc = readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8');

/** The rows of the event table under "## Live events", as written. */
function documentedRows(): string[] {
  const section = doc.slice(doc.indexOf('## Live events'), doc.indexOf('\n## ', doc.indexOf('## Live events') + 1));
  return section.split('\n').filter((line) => line.startsWith('| `'));
}

/** The row the catalogue says the table has for `type`. */
function catalogueRow(type: EventType): string {
  const spec = eventSpec(type);
  const to = spec.webhook === null ? 'none' : WEBHOOK_TARGETS[spec.webhook.to];
  const signer = spec.webhook === null ? '—' : WEBHOOK_SIGNERS[spec.webhook.signer];
  return `| \`${type}\` | ${RUN_ID_USES[spec.runId]} | ${to} | ${signer} | ${spec.description} |`;
}

describe('docs/api.md, Live events', () => {
  it('lists exactly the catalogue\'s events, each with its run, webhook, signer and description', () => {
    expect(documentedRows()).toEqual(EVENT_TYPES.map(catalogueRow));
  });

  it.each(EVENT_TYPES.filter((t) => /`\{[a-z_, ]+\}`/.test(eventSpec(t).description)))('names the members of %s\'s data as its schema has them', (type) => {
    const spec = eventSpec(type);
    const listed = /`\{([a-z_, ]+)\}`/.exec(spec.description)![1]!.split(', ');
    expect(listed).toEqual(Object.keys(spec.data.properties));
    expect([...spec.data.required].sort()).toEqual([...listed].sort());
  });
});
