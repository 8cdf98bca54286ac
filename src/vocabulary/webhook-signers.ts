/** Which secret signs a delivery: the organisation's run-webhook secret, or its email identity's webhook secret. */
export type WebhookSigner = 'org' | 'email';
