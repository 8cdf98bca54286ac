import { readFileSync } from 'node:fs';
import { UsageError, UserError } from '../../cli-errors.js';

export interface SecretFlags {
  secretStdin?: boolean;
  secretFromEnv?: string;
}

/**
 * The secret from stdin or from an environment variable, never from an argument: arguments end up in shell
 * history and in every `ps` listing. Undefined when neither flag was given.
 */
export function readSecret(flags: SecretFlags, env: NodeJS.ProcessEnv, readStdin: () => string = () => readFileSync(0, 'utf8')): string | undefined {
  if (flags.secretStdin === true && flags.secretFromEnv !== undefined) throw new UsageError('give the secret with --secret-stdin or --secret-from-env, not both');
  if (flags.secretFromEnv !== undefined) {
    const value = env[flags.secretFromEnv];
    if (value === undefined || value === '') throw new UserError(`the environment variable ${flags.secretFromEnv} is not set`);
    return value;
  }
  if (flags.secretStdin !== true) return undefined;
  // One trailing newline is what `echo` and most secret managers add; it is not part of the secret.
  const value = readStdin().replace(/\r?\n$/, '');
  if (value === '') throw new UserError('--secret-stdin read nothing');
  return value;
}
