import { ConflictError } from '../../errors.js';
import type { MailboxesStore } from '../../store/mailboxes-store.js';

/**
 * Who may hold a username (one namespace for identities and inboxes across the installation): nobody else holds it,
 * and no other organisation let it go. Mail to a released address keeps arriving, replies to the first
 * organisation's sends included, so it is never given to another organisation (issue 21, item 6); the one that let
 * it go may take it back.
 */
export function assertUsernameFree(mailboxes: MailboxesStore, orgId: string, username: string, ownMailboxId: string | null): void {
  const holder = mailboxes.byUsername(username);
  if (holder !== undefined && holder.id !== ownMailboxId) throw usernameTaken(username);
  const retired = mailboxes.retiredUsername(username);
  if (retired !== undefined && retired.org_id !== orgId) throw usernameRetired(username);
}

/** Whether `orgId` may take `username` (for names made up for it). */
export function isUsernameFree(mailboxes: MailboxesStore, orgId: string, username: string): boolean {
  const retired = mailboxes.retiredUsername(username);
  return mailboxes.byUsername(username) === undefined && (retired === undefined || retired.org_id === orgId);
}

export function usernameTaken(username: string): ConflictError {
  return new ConflictError('username_taken', `The username '${username}' is taken or reserved`, { param: 'username' });
}

function usernameRetired(username: string): ConflictError {
  return new ConflictError(
    'username_retired',
    `The username '${username}' was released by another organisation and is never given to anyone else: mail for it may still arrive`,
    { param: 'username' },
  );
}
