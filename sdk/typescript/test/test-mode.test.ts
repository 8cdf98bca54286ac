import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Errand, NotFoundError } from '../src/index.js';
import { startSdkDaemon, type SdkDaemon } from './sdk-daemon.js';

let daemon: SdkDaemon;
let testMode: Errand;
let live: Errand;

beforeAll(async () => {
  daemon = await startSdkDaemon();
  testMode = new Errand({ apiKey: await daemon.testKey(), baseUrl: daemon.url });
  live = new Errand({ apiKey: daemon.key, baseUrl: daemon.url });
});
afterAll(async () => {
  await daemon?.stop();
});

describe('test mode', () => {
  it('S12 forces an outcome, generates a result of the output_schema, stays apart from live, and calls no model', async () => {
    const modelBefore = await daemon.modelRequests();
    const failed = await testMode.runs.createAndWait({ prompt: 'Buy the widget at {{url}}', inputs: { url: 'https://shop.example/?errand_test=captcha' } }, { timeoutMs: 50_000 });
    expect(failed).toMatchObject({ status: 'failed', failure_reason: 'captcha', livemode: false });
    const schema = { type: 'object', required: ['price', 'currency'], properties: { price: { type: 'number', minimum: 0 }, currency: { enum: ['EUR', 'USD'] } } };
    const succeeded = await testMode.runs.createAndWait({ prompt: 'Find the price', output_schema: schema }, { timeoutMs: 50_000 });
    expect(succeeded).toMatchObject({ status: 'succeeded', livemode: false, usage: { cost_usd: 0 } });
    expect(typeof succeeded.result?.price).toBe('number');
    expect(['EUR', 'USD']).toContain(succeeded.result?.currency);
    await expect(live.runs.get(failed.task_id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(live.runs.get(succeeded.task_id)).rejects.toBeInstanceOf(NotFoundError);
    expect(await daemon.modelRequests()).toBe(modelBefore);
  });
});
