import type { Command } from 'commander';
import { registerInboxesCreate } from './create.js';
import { registerInboxesDelete } from './delete.js';
import { registerInboxesGet } from './get.js';
import { registerInboxesList } from './list.js';
import { registerInboxesSend } from './send.js';
import { registerInboxesUpdate } from './update.js';
import { examples } from '../../help.js';

export function registerInboxes(program: Command): void {
  const inboxes = program.command('inboxes').description('inboxes: more addresses of the organisation, each sending and receiving like the identity').addHelpText('after', examples('errand inboxes create --username support', 'errand inboxes list'));
  registerInboxesList(inboxes);
  registerInboxesCreate(inboxes);
  registerInboxesGet(inboxes);
  registerInboxesUpdate(inboxes);
  registerInboxesDelete(inboxes);
  registerInboxesSend(inboxes);
}
