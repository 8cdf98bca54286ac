import { withDataDirectory } from '../src/admin-services.js';
import { parseKey } from '../src/keys/api-key.js';
import { UserError } from './cli-errors.js';
import type { CliContext } from './context.js';

/**
 * The organisation of the API key in use, looked up in the data directory: what the commands that work beside the
 * API on the daemon's machine (listen's signing secret, the TUI's webhook deliveries) act on.
 */
export async function organisationOfKey(ctx: CliContext, purpose: string): Promise<string> {
  const key = parseKey(ctx.address().key);
  const orgId = await withDataDirectory(ctx.home, ctx.env, ({ keys }) => (key === null ? undefined : keys.list().find((k) => k.id === key.keyId)?.org_id));
  if (orgId === undefined) {
    throw new UserError(
      `${purpose} read from the data directory (${ctx.home}), which does not hold this API key; run it on the daemon's machine, with --home set to its data directory`,
      'key_not_in_data_directory',
    );
  }
  return orgId;
}
