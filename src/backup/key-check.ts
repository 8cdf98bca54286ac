import { createHmac } from 'node:crypto';

/**
 * A value that says whether two master keys are the same without revealing either: a backup carries it, so that a
 * restore can say before anything is replaced that the key at hand would not open the backup's secrets.
 */
export function keyCheck(masterKey: Buffer): string {
  return createHmac('sha256', masterKey).update('errand backup: master key check').digest('base64url');
}
