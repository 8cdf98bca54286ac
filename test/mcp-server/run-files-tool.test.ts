import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRun, startEngine, waitForRun, type EngineHarness } from '../engine/harness.js';
import { toolUse } from '../fixtures/scripted-anthropic.js';
import { connectWithKey, structured, toolError } from './harness.js';

describe('the MCP tool get_run_files', () => {
  let h: EngineHarness;
  let runId: string;

  beforeAll(async () => {
    h = await startEngine();
    h.model.script([
      toolUse('run_code', { language: 'bash', code: 'printf "id,name\\n1,x\\n" > out/rows.csv' }),
      toolUse('finish', { result: { ok: true }, confidence: 'high' }),
    ]);
    runId = await createRun(h.daemon, { prompt: 'Write a CSV' });
    expect((await waitForRun(h.daemon, runId, undefined, 60_000)).status).toBe('succeeded');
  }, 90_000);
  afterAll(async () => {
    await h?.close();
  });

  it("answers the run's files with links that download them, and another organisation's run as not found", async () => {
    const mine = await connectWithKey(h.daemon.url, h.daemon.key);
    const theirs = await connectWithKey(h.daemon.url, h.daemon.createOrgWithKey('mcp-files-stranger').key);
    try {
      const { tools } = await mine.listTools();
      expect(tools.find((t) => t.name === 'get_run_files')?.annotations).toMatchObject({ readOnlyHint: true });
      const files = structured(await mine.callTool({ name: 'get_run_files', arguments: { task_id: runId } }));
      expect(files).toMatchObject({ object: 'list', data: [{ name: 'rows.csv', size: 12, content_type: 'text/csv', expires_at: expect.any(String) }] });
      const res = await fetch(files.data[0].url);
      expect(res.status).toBe(200);
      expect(await res.text()).toBe('id,name\n1,x\n');
      expect(toolError(await theirs.callTool({ name: 'get_run_files', arguments: { task_id: runId } }))).toMatchObject({ type: 'not_found_error' });
    } finally {
      await mine.close();
      await theirs.close();
    }
  });
});
