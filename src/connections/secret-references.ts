import type { BrowserAction, BrowserRequest, TotpSeed } from '../sandbox/protocol.js';
import type { NamedSecret } from './secret-mask.js';

const SECRET_REFERENCE = /\{\{\s*secret:([^}\s]*)\s*\}\}/g;
const TOTP_REFERENCE = /\{\{\s*totp:([^}\s]*)\s*\}\}/g;

/**
 * A `type` (or the computer action space's `type_text`) whose text refers to secrets as `{{secret:<name>}}` goes to the sandbox with the values of exactly
 * those secrets, which the supervisor puts in at the last moment: the model only ever handles the reference. One
 * that refers to TOTP connections as `{{totp:<name>}}` goes with their seeds, from which the supervisor computes the
 * codes it types: the daemon never knows a code. Answers what is wrong when a reference names nothing of the run.
 */
export function withSecrets(action: BrowserAction, runSecrets: readonly NamedSecret[]): BrowserRequest | string {
  if (action.action !== 'type' && action.action !== 'type_text') return action;
  const names = [...action.text.matchAll(SECRET_REFERENCE)].map((m) => m[1]!);
  const totpNames = [...action.text.matchAll(TOTP_REFERENCE)].map((m) => m[1]!);
  if (names.length === 0 && totpNames.length === 0) return action;
  const secrets: Record<string, string> = {};
  for (const name of names) {
    const found = runSecrets.find((s) => s.name === name && s.typeable === true);
    if (found === undefined) {
      if (runSecrets.some((s) => s.name === name && s.totp !== undefined)) return `{{secret:${name}}} names a TOTP connection, whose seed is never typed: write {{totp:${name}}} to type its current code`;
      const known = [...new Set(runSecrets.filter((s) => s.typeable === true).map((s) => s.name))];
      return `{{secret:${name}}} names no secret this run can type; ${known.length === 0 ? 'it has none' : `it can type ${known.map((n) => `{{secret:${n}}}`).join(', ')}`}`;
    }
    secrets[name] = found.value;
  }
  const totp: Record<string, TotpSeed> = {};
  for (const name of totpNames) {
    const found = runSecrets.find((s) => s.name === name && s.totp !== undefined);
    if (found === undefined) {
      const known = [...new Set(runSecrets.filter((s) => s.totp !== undefined).map((s) => s.name))];
      return `{{totp:${name}}} names no TOTP connection of this run; ${known.length === 0 ? 'it has none' : `it can type ${known.map((n) => `{{totp:${n}}}`).join(', ')}`}`;
    }
    totp[name] = found.totp!;
  }
  return { ...action, ...(names.length === 0 ? {} : { secrets }), ...(totpNames.length === 0 ? {} : { totp }) };
}
