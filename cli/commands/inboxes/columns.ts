import type { Inbox } from '../../api.js';
import type { CliContext } from '../../context.js';
import type { Column } from '../../output.js';

export const inboxColumns: Column<Inbox>[] = [
  { header: 'ID', value: (i) => i.id },
  { header: 'ADDRESS', value: (i) => i.address, max: 50 },
  { header: 'NAME', value: (i) => i.display_name, max: 30 },
  { header: 'CALLBACK', value: (i) => i.callback_url ?? "(identity's)", max: 50 },
  { header: 'CREATED', value: (i) => i.created_at },
];

export function printInbox(ctx: CliContext, inbox: Inbox): void {
  ctx.out.result(inbox, () =>
    ctx.out.fields([
      ['id', inbox.id],
      ['address', inbox.address],
      ['display name', inbox.display_name],
      ['callback url', inbox.callback_url ?? "(the identity's)"],
      ['created', inbox.created_at],
      ['updated', inbox.updated_at],
    ]),
  );
}
