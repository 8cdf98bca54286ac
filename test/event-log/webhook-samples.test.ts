import { describe, expect, it } from 'vitest';
import { EVENT_TYPES, WEBHOOK_EVENT_TYPES, eventSpec } from '../../src/event-log/event-catalogue.js';
import { webhookSample } from '../../src/event-log/webhook-samples.js';
import { createAjv } from '../../src/json-schema/create-ajv.js';

const AT = '2026-11-25T09:00:00.000Z';

describe('the webhook samples (errand webhooks test)', () => {
  it('has one for every event sent as a webhook, and none is missing from the catalogue', () => {
    expect(WEBHOOK_EVENT_TYPES.length).toBeGreaterThan(0);
    expect(WEBHOOK_EVENT_TYPES).toEqual(EVENT_TYPES.filter((t) => eventSpec(t).webhook !== null));
    for (const type of WEBHOOK_EVENT_TYPES) expect(webhookSample(type, AT), type).toEqual(expect.any(Object));
  });

  it.each(WEBHOOK_EVENT_TYPES)('gives %s data its webhook schema accepts', (type) => {
    const validate = createAjv({ allErrors: true, strict: false }).compile(eventSpec(type).data);
    expect(validate(webhookSample(type, AT)) ? [] : validate.errors).toEqual([]);
  });

  it('stamps the sample with the time it is sent', () => {
    expect(JSON.stringify(webhookSample('run.completed', AT))).toContain(AT);
    expect(webhookSample('email.received', AT)).toMatchObject({ received_at: AT });
  });
});
