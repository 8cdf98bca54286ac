import type { Command } from 'commander';
import { examples } from '../../help.js';
import { registerProfilesCheck } from './check.js';
import { registerProfilesCreate } from './create.js';
import { registerProfilesDelete } from './delete.js';
import { registerProfilesGet } from './get.js';
import { registerProfilesImport } from './import.js';
import { registerProfilesList } from './list.js';
import { registerProfilesRuns } from './runs.js';
import { registerProfilesUpdate } from './update.js';

export function registerProfiles(program: Command): void {
  const profiles = program
    .command('profiles')
    .description("profiles: saved logins (cookies and each site's storage) that runs start with; sealed, never shown")
    .addHelpText('after', examples('errand profiles list', 'errand profiles import acme state.json', 'errand runs create "Download the latest invoice" --profile acme'));
  registerProfilesList(profiles);
  registerProfilesGet(profiles);
  registerProfilesCreate(profiles);
  registerProfilesImport(profiles);
  registerProfilesUpdate(profiles);
  registerProfilesDelete(profiles);
  registerProfilesCheck(profiles);
  registerProfilesRuns(profiles);
}
