import type { Command } from 'commander';
import { registerEmailApproval } from './approval.js';
import { registerEmailApprove } from './approve.js';
import { registerEmailDomain } from './domain/index.js';
import { registerEmailIdentity } from './identity.js';
import { registerEmailList } from './list.js';
import { registerEmailPending } from './pending.js';
import { registerEmailReceived } from './received.js';
import { registerEmailReject } from './reject.js';
import { registerEmailSend } from './send.js';
import { registerEmailShow } from './show.js';
import { registerEmailSimulateReply } from './simulate-reply.js';
import { registerEmailSuppressions } from './suppressions/index.js';
import { examples } from '../../help.js';

export function registerEmail(program: Command): void {
  const email = program.command('email').description("email: send from the organisation's identity, see what was sent and received, approvals and suppressions").addHelpText('after', examples('errand email send --to ada@example.com --subject Hello --text \'Hi Ada\'', 'errand email list', 'errand email received'));
  registerEmailSend(email);
  registerEmailList(email);
  registerEmailShow(email);
  registerEmailReceived(email);
  registerEmailSimulateReply(email);
  registerEmailIdentity(email);
  registerEmailDomain(email);
  registerEmailSuppressions(email);
  registerEmailApproval(email);
  registerEmailPending(email);
  registerEmailApprove(email);
  registerEmailReject(email);
}
