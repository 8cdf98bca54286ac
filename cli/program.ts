import { Command, Option } from 'commander';
import { packageVersion } from '../src/package-root.js';
import { registerBackup } from './commands/backup/backup.js';
import { registerConnections } from './commands/connections/index.js';
import { registerDaemon } from './commands/daemon/index.js';
import { registerDoctor } from './commands/doctor/doctor.js';
import { registerEmail } from './commands/email/index.js';
import { registerGc } from './commands/gc/gc.js';
import { registerInboxes } from './commands/inboxes/index.js';
import { registerJobs } from './commands/jobs/index.js';
import { registerKeys } from './commands/keys/index.js';
import { registerLogin } from './commands/login/login.js';
import { registerMcp } from './commands/mcp/index.js';
import { registerOrgs } from './commands/orgs/index.js';
import { registerProjects } from './commands/projects/index.js';
import { registerRestore } from './commands/restore/restore.js';
import { registerRuns } from './commands/runs/index.js';
import { registerSandbox } from './commands/sandbox/index.js';
import { registerSchedules } from './commands/schedules/index.js';
import { registerSecrets } from './commands/secrets/index.js';
import { registerWebhooks } from './commands/webhooks/index.js';

/** The `errand` command tree: nouns, then verbs, each verb in `cli/commands/<noun>/<verb>.ts`. */
export function buildProgram(): Command {
  const program = new Command('errand');
  // Set before any subcommand exists: commander copies these settings into every subcommand it creates.
  program
    .exitOverride()
    .showHelpAfterError('(see --help)')
    .configureHelp({ showGlobalOptions: true, sortSubcommands: false })
    .description('Errand: run natural-language agent tasks on your own machine, with a daemon (errandd) and its /v1 API.')
    .version(packageVersion(), '-V, --version', 'print the version')
    .addOption(new Option('--home <dir>', 'data directory (default: $ERRAND_HOME or ~/.errand)'))
    .option('--json', 'print machine-readable JSON on stdout and nothing else')
    .addHelpText(
      'after',
      `
The API address and key come from ERRAND_API_URL / ERRAND_API_KEY, else from 'errand login' (or the daemon's first
start), else the address of the daemon running on the data directory.
Exit status: 0 success, 1 an error (the API's message is printed), 2 a usage error.`,
    );

  registerDaemon(program);
  registerLogin(program);
  registerOrgs(program);
  registerKeys(program);
  registerProjects(program);
  registerJobs(program);
  registerRuns(program);
  registerConnections(program);
  registerSchedules(program);
  registerEmail(program);
  registerInboxes(program);
  registerWebhooks(program);
  registerMcp(program);
  registerSecrets(program);
  registerSandbox(program);
  registerDoctor(program);
  registerGc(program);
  registerBackup(program);
  registerRestore(program);
  return program;
}
