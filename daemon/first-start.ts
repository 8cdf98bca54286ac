import type { KeysService } from '../src/keys/keys-service.js';
import type { OrgsService } from '../src/orgs/orgs-service.js';
import { readCredentials, writeCredentials } from '../src/runtime/credentials.js';

/**
 * On a data directory's first start: create the `default` organisation and mint its first key. The key is
 * printed once and saved as the CLI's credentials (0600) unless the user already logged in, so the Quickstart
 * works with no further set-up.
 */
export function firstStart(orgs: OrgsService, keys: KeysService, credentialsPath: string): { orgId: string; key: string; saved: boolean } | null {
  const org = orgs.ensureDefault();
  if (!org) return null;
  const created = keys.create({ orgId: org.id, name: 'first key' });
  const saved = readCredentials(credentialsPath) === null;
  if (saved) writeCredentials(credentialsPath, { api_url: null, api_key: created.key });
  return { orgId: org.id, key: created.key, saved };
}
