import { expect } from 'vitest';
import { ProviderError, type ModelRequest } from '../../../src/engine/providers/provider.js';

/** A small model request, with whatever a test overrides. */
export function request(overrides: Partial<ModelRequest> = {}): ModelRequest {
  return {
    model: 'sonnet',
    system: 'You are a careful agent.',
    messages: [{ role: 'user', content: [{ type: 'text', text: 'Is the site up?' }] }],
    tools: [],
    maxTokens: 1024,
    signal: new AbortController().signal,
    ...overrides,
  };
}

/** The ProviderError a call rejects with (and fails the test when it rejects with anything else, or resolves). */
export async function providerError(promise: Promise<unknown>): Promise<ProviderError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ProviderError);
  return err as ProviderError;
}
