import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CONFIG_KEYS } from '../../src/config/schema.js';
import { connectionManagementTools, type ConnectionManagementToolDeps } from '../../src/mcp-server/tools/connection-management-tools.js';
import { coreTools, type CoreToolDeps } from '../../src/mcp-server/tools/core-tools.js';
import { emailTools, type EmailToolDeps } from '../../src/mcp-server/tools/email-tools.js';
import { profileTools, type ProfileToolDeps } from '../../src/mcp-server/tools/profile-tools.js';
import { answerRunTool } from '../../src/mcp-server/tools/answer-run-tool.js';
import { getRunFilesTool } from '../../src/mcp-server/tools/get-run-files-tool.js';
import type { RunFilesService } from '../../src/run-files/run-files-service.js';
import type { HumanRequests } from '../../src/human/human-requests.js';

const doc = readFileSync(new URL('../../docs/mcp.md', import.meta.url), 'utf8');
// Only the tools' descriptions and schemas are read here; their services are never called.
const tools = [
  ...coreTools({ maxWaitS: CONFIG_KEYS['mcp.run_wait_s'].default } as CoreToolDeps),
  answerRunTool({ human: {} as HumanRequests }),
  getRunFilesTool({ runFiles: {} as RunFilesService }),
  ...connectionManagementTools({} as ConnectionManagementToolDeps),
  ...profileTools({} as ProfileToolDeps),
  ...emailTools({} as EmailToolDeps),
];

/** The first ```json block after the tool's heading. */
function documentedSchema(name: string): unknown {
  const at = doc.indexOf(`### \`${name}\``);
  if (at < 0) return undefined;
  const block = /```json\n([\s\S]*?)\n```/.exec(doc.slice(at));
  return block ? JSON.parse(block[1]!) : undefined;
}

describe('docs/mcp.md', () => {
  it.each(tools.map((t) => [t.name, t] as const))('documents %s with its description and the JSON Schema clients get', (name, tool) => {
    expect(documentedSchema(name)).toEqual(tool.inputSchema);
    expect(doc).toContain(`> ${tool.description}`);
  });
});
