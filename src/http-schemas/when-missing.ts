/**
 * A keyword of our own in a member's schema: what the error for that required member, left out, adds to "Missing
 * required member" (where the caller finds the value it must send). Validation ignores it (Ajv runs without strict
 * keywords); OpenAPI documents carry it as a specification extension (`x-`).
 */
export const WHEN_MISSING = 'x-when-missing';

/** `: <hint>` for the member `name` of `parentSchema` when its schema has one, else ''. */
export function whenMissing(parentSchema: { properties?: Record<string, unknown> } | undefined, name: string): string {
  const member = parentSchema?.properties?.[name];
  const hint = typeof member === 'object' && member !== null ? (member as Record<string, unknown>)[WHEN_MISSING] : undefined;
  return typeof hint === 'string' ? `: ${hint}` : '';
}
