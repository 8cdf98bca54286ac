import { Option, type Command } from 'commander';
import type { ProfileCreateParams } from '../../api.js';
import { UsageError } from '../../cli-errors.js';
import { laterFlag } from '../../flag-parsers.js';

export interface CheckFlags {
  checkUrl?: string;
  checkText?: string;
  checkRole?: string;
  checkName?: string;
  expires?: string;
}

/** How a profile tells it is still signed in, and when its state is erased: flags of create, import and update. */
export function addCheckOptions(cmd: Command): Command {
  return cmd
    .option('--check-url <url>', 'a page of the site that shows, only when signed in, the text or role below')
    .addOption(new Option('--check-text <text>', 'text that page shows only when signed in (Sign out, the account name)').conflicts('checkRole'))
    .option('--check-role <role>', 'or: the ARIA role of an element shown only when signed in (link, button)')
    .option('--check-name <name>', "the accessible name of --check-role's element")
    .addOption(new Option('--expires <when>', 'erase its state then: an RFC 3339 time or how long from now (12h, 30d); default never').argParser(laterFlag()));
}

/** The check the flags give, or undefined when they give none; a half-given check is a usage error. */
export function checkOf(flags: CheckFlags): ProfileCreateParams['check'] {
  const given = [flags.checkUrl, flags.checkText, flags.checkRole, flags.checkName].some((f) => f !== undefined);
  if (!given) return undefined;
  if (flags.checkUrl === undefined) throw new UsageError('a check needs --check-url, with --check-text or --check-role', 'usage_error', '--check-url');
  if (flags.checkText === undefined && flags.checkRole === undefined) throw new UsageError('a check needs --check-text or --check-role', 'usage_error', '--check-text');
  if (flags.checkName !== undefined && flags.checkRole === undefined) throw new UsageError('--check-name names the element of --check-role: give both', 'usage_error', '--check-name');
  return {
    url: flags.checkUrl,
    ...(flags.checkText === undefined ? {} : { text: flags.checkText }),
    ...(flags.checkRole === undefined ? {} : { role: flags.checkRole }),
    ...(flags.checkName === undefined ? {} : { name: flags.checkName }),
  };
}
