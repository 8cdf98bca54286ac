import type { Org, OrgsService } from '../src/orgs/orgs-service.js';
import { UserError } from './cli-errors.js';
import { cliName } from './invocation.js';

/**
 * The organisation a command acts on: the one named by `--org` (id or name), or else the only one, or else the
 * one named `default`.
 */
export function pickOrg(orgs: OrgsService, idOrName: string | undefined): Org {
  if (idOrName !== undefined) return orgs.resolve(idOrName);
  const all = orgs.list();
  if (all.length === 0) throw new UserError(`no organisation yet: start the daemon once ('${cliName()} daemon start') or run '${cliName()} orgs create <name>'`, 'no_organisation');
  if (all.length === 1) return all[0]!;
  const fallback = all.find((o) => o.name === 'default');
  if (fallback) return fallback;
  throw new UserError(`there are ${all.length} organisations; choose one with --org <id or name>`, 'organisation_ambiguous');
}
