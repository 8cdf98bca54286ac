import type { Org, OrgsService } from '../src/orgs/orgs-service.js';
import { UserError } from './cli-errors.js';
import { cliName } from './invocation.js';

/** What `--org` takes where a test-mode twin has its own (webhook secrets and endpoints, deliveries, email). */
export const ORG_OPTION_HELP = 'organisation: id or name, or test:<id or name> for its test mode (default: the only one, or "default")';

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
