import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { hold, toolUse } from '../fixtures/scripted-anthropic.js';
import { startEngine, type EngineHarness } from '../engine/harness.js';
import { connectWithKey, structured } from './harness.js';

describe('errandd on SIGTERM with MCP sessions open', () => {
  let h: EngineHarness | null = null;
  afterEach(async () => {
    await h?.close();
    h = null;
  });

  it('answers the tool call under way, closes the sessions and their streams, and exits 0', async () => {
    h = await startEngine();
    const client = await connectWithKey(h.daemon.url, h.daemon.key);
    const held = hold(toolUse('finish', { result: { ok: true }, confidence: 'high' }));
    h.model.script([held]);
    const call = client.callTool({ name: 'run_task', arguments: { prompt: 'Finish during shutdown' } });
    await held.arrived;
    const exited = once(h.daemon.process, 'exit');
    h.daemon.process.kill('SIGTERM');
    held.release();
    expect(structured(await call)).toMatchObject({ status: 'succeeded', result: { ok: true } });
    const [code] = await exited;
    expect(code).toBe(0);
    await client.close();
  });
});
