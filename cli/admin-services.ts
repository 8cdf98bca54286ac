import { mkdirSync } from 'node:fs';
import { systemClock } from '../src/clock.js';
import { createIdFactory } from '../src/ids.js';
import { KeysService } from '../src/keys/keys-service.js';
import { OrgsService, type Org } from '../src/orgs/orgs-service.js';
import { dataPaths } from '../src/runtime/paths.js';
import { openStore, type Store } from '../src/store/store.js';
import { UserError } from './cli-errors.js';

export interface AdminServices {
  store: Store;
  orgs: OrgsService;
  keys: KeysService;
}

/**
 * Admin commands (orgs, keys, webhook secrets) work on the data directory itself, not through the API: keys are
 * never minted over HTTP. The store is opened for one command and closed after it, beside a running daemon
 * (SQLite WAL with a busy timeout makes that safe).
 */
export async function withAdminServices<T>(home: string, fn: (services: AdminServices) => T | Promise<T>): Promise<T> {
  // Created as the daemon would create it: it will hold keys' hashes, the master key and credentials.
  mkdirSync(home, { recursive: true, mode: 0o700 });
  const store = openStore(dataPaths(home).database);
  try {
    const resources = { store, clock: systemClock, ids: createIdFactory() };
    return await fn({ store, orgs: new OrgsService(resources), keys: new KeysService(resources) });
  } finally {
    store.close();
  }
}

/**
 * The organisation a command acts on: the one named by `--org` (id or name), or else the only one, or else the
 * one named `default`.
 */
export function pickOrg(orgs: OrgsService, idOrName: string | undefined): Org {
  if (idOrName !== undefined) return orgs.resolve(idOrName);
  const all = orgs.list();
  if (all.length === 0) throw new UserError("no organisation yet: start the daemon once ('errand daemon start') or run 'errand orgs create <name>'");
  if (all.length === 1) return all[0]!;
  const fallback = all.find((o) => o.name === 'default');
  if (fallback) return fallback;
  throw new UserError(`there are ${all.length} organisations; choose one with --org <id or name>`);
}
