/**
 * A test-mode run starts no container (issue 25): with the docker driver configured, docker's own events for this
 * installation's sandboxes are counted while test-mode runs go through every kind of ending; a live run beside them,
 * on the scripted model, starts one, which shows that the count would see it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installationId } from '../../src/runtime/installation-id.js';
import { INSTALLATION_LABEL, RUN_LABEL, SANDBOX_LABEL } from '../../src/sandbox/docker/labels.js';
import { dockerAvailability } from '../fixtures/docker.js';
import { toolUse } from '../fixtures/scripted-anthropic.js';
import { createRun, startEngine, waitForRun, type EngineHarness } from '../engine/harness.js';

const docker = await dockerAvailability();

/** The runs whose containers the installation on `home` created between two moments (Unix seconds), by docker's event log. */
async function containersCreated(home: string, sinceS: number, untilS: number): Promise<string[]> {
  const filters = JSON.stringify({ type: ['container'], event: ['create'], label: [`${SANDBOX_LABEL}=1`, `${INSTALLATION_LABEL}=${installationId(home)}`] });
  const stream = (await docker.docker.getEvents({ since: sinceS, until: untilS, filters })) as unknown as NodeJS.ReadableStream;
  let text = '';
  for await (const chunk of stream) text += chunk.toString();
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => (JSON.parse(line) as { Actor: { Attributes: Record<string, string> } }).Actor.Attributes[RUN_LABEL] ?? '(no run)');
}

const nowS = () => Math.floor(Date.now() / 1000);

describe.skipIf(!docker.available)('test mode with the docker driver', () => {
  let h: EngineHarness;
  let testKey: string;

  beforeAll(async () => {
    h = await startEngine({ env: { ERRAND_SANDBOX_DRIVER: 'docker', ERRAND_SANDBOX_IMAGE: docker.image, ERRAND_SANDBOX_WARM_POOL_SIZE: '0' } });
    testKey = h.daemon.createTestKey().key;
  }, 120_000);
  afterAll(async () => {
    await h?.close();
  });

  it('starts no container and calls no model for test-mode runs, while a live run does both', async () => {
    const since = nowS();
    const prompts = ['plain', 'x errand_test=captcha', 'x errand_test=site_down', 'x errand_test=low_confidence', 'x errand_test=invalid_output'];
    const ids = await Promise.all(prompts.map((prompt) => createRun(h.daemon, { prompt, output_schema: { type: 'object', required: ['a'], properties: { a: { type: 'string' } } } }, testKey)));
    for (const id of ids) expect((await waitForRun(h.daemon, id, undefined, 45_000, testKey)).status).toMatch(/^(succeeded|failed)$/);
    expect(h.model.requests).toHaveLength(0);

    h.model.script([toolUse('finish', { result: { a: 'live' }, confidence: 'high', matched_text: 'live' })]);
    const live = await waitForRun(h.daemon, await createRun(h.daemon, { prompt: 'a live one', output_schema: { type: 'object', required: ['a'], properties: { a: { type: 'string' } } } }), undefined, 90_000);
    expect(live).toMatchObject({ status: 'succeeded', livemode: true });
    expect(h.model.requests.length).toBeGreaterThan(0);
    // Every container the installation created in the whole window is the live run's (warm pool off: one per run).
    expect(await containersCreated(h.daemon.home, since, nowS() + 1)).toEqual([live.task_id]);
  }, 150_000);
});
