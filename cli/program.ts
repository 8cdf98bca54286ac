import { Command, Option } from 'commander';
import { packageVersion } from '../src/package-root.js';
import { registerBackup } from './commands/backup/backup.js';
import { examples } from './help.js';
import { registerCompletion } from './commands/completion/completion.js';
import { registerConfig } from './commands/config/index.js';
import { registerConnections } from './commands/connections/index.js';
import { registerDaemon } from './commands/daemon/index.js';
import { registerDoctor } from './commands/doctor/doctor.js';
import { registerEmail } from './commands/email/index.js';
import { registerGc } from './commands/gc/gc.js';
import { registerInboxes } from './commands/inboxes/index.js';
import { registerJobs } from './commands/jobs/index.js';
import { registerListen } from './commands/listen/listen.js';
import { registerKeys } from './commands/keys/index.js';
import { registerLogin } from './commands/login/login.js';
import { registerMcp } from './commands/mcp/index.js';
import { registerOrgs } from './commands/orgs/index.js';
import { registerFiles } from './commands/files/index.js';
import { registerProfiles } from './commands/profiles/index.js';
import { registerProjects } from './commands/projects/index.js';
import { registerRestore } from './commands/restore/restore.js';
import { registerRuns } from './commands/runs/index.js';
import { registerSandbox } from './commands/sandbox/index.js';
import { registerSchedules } from './commands/schedules/index.js';
import { registerSecrets } from './commands/secrets/index.js';
import { registerTui } from './commands/tui/tui.js';
import { registerWebhooks } from './commands/webhooks/index.js';

export interface ProgramOptions {
  /** `--json` was given: commander's own messages are left to the JSON error on stderr. */
  json?: boolean;
}

/** The `errand` command tree: nouns, then verbs, each verb in `cli/commands/<noun>/<verb>.ts`. */
export function buildProgram(options: ProgramOptions = {}): Command {
  const program = new Command('errand');
  // Set before any subcommand exists: commander copies these settings into every subcommand it creates.
  program
    .exitOverride()
    .configureOutput(options.json ? { writeErr: () => undefined, outputError: () => undefined } : {})
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
start), else the address of the daemon running on the data directory. In a clone of the repository, run it as
'npx errand', or once 'npm link' to have 'errand' on your PATH.
Output: tables for people; with --json, JSON on stdout and nothing else (errors are a JSON object on stderr, in the
API's error shape). Colours only on a terminal, and never with NO_COLOR set.
Exit status: 0 success, 1 a failure (the API's message is printed), 2 a usage error (flags, arguments, ERRAND_*).
${examples('errand daemon start', "errand runs create 'What is the title of https://example.com?' --wait", 'errand tui', 'errand completion bash > ~/.local/share/bash-completion/completions/errand')}`,
    );

  registerDaemon(program);
  registerLogin(program);
  registerOrgs(program);
  registerKeys(program);
  registerProjects(program);
  registerJobs(program);
  registerRuns(program);
  registerFiles(program);
  registerConnections(program);
  registerProfiles(program);
  registerSchedules(program);
  registerEmail(program);
  registerInboxes(program);
  registerWebhooks(program);
  registerListen(program);
  registerTui(program);
  registerMcp(program);
  registerSecrets(program);
  registerConfig(program);
  registerSandbox(program);
  registerDoctor(program);
  registerGc(program);
  registerBackup(program);
  registerRestore(program);
  registerCompletion(program);
  return program;
}
