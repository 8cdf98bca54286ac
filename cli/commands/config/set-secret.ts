import { join } from 'node:path';
import type { Command } from 'commander';
import { setOperatorSecret } from '../../../src/config/operator-secrets.js';
import { currentKey } from '../../../src/config/renamed-keys.js';
import { isSecretKey, SECRET_KEYS, envName, fileEnvName, type ConfigKey } from '../../../src/config/schema.js';
import { SEALED_CONFIG_FILE } from '../../../src/config/sealed-config.js';
import { ConfigError } from '../../../src/errors.js';
import { readDaemonState } from '../../../src/runtime/daemon-state.js';
import { dataPaths } from '../../../src/runtime/paths.js';
import { UsageError } from '../../cli-errors.js';
import { contextOf, type CliContext } from '../../context.js';
import { examples } from '../../help.js';
import { readSecret, type SecretFlags } from '../connections/secret-input.js';

export function registerConfigSetSecret(config: Command): void {
  config
    .command('set-secret')
    .description(`seal a secret key's value under the master key in <home>/${SEALED_CONFIG_FILE} (read from stdin or a variable, never from an argument); a plain copy in config.json is removed`)
    .argument('<key>', `the secret key: ${SECRET_KEYS.join(', ')}`)
    .option('--secret-stdin', 'read the value from stdin (the default when stdin is not a terminal)')
    .option('--secret-from-env <variable>', 'read the value from this environment variable')
    .addHelpText(
      'after',
      examples(
        'errand config set-secret mail.smtp_url < relay-url.txt',
        'errand config set-secret oauth.providers --secret-stdin < providers.json',
        'errand config set-secret mail.smtp_url --secret-from-env RELAY_URL',
      ),
    )
    .addHelpText('after', '\nThe daemon reads sealed secrets when it starts: restart it (errand daemon stop && errand daemon start) to use a new value.')
    .action(async (key: string, flags: SecretFlags, cmd: Command) => {
      await setSecret(contextOf(cmd), secretKey(key), flags);
    });
}

/** The argument as a secret key (a renamed one's old name as its new one), or a usage error saying what it is instead. */
export function secretKey(key: string): ConfigKey {
  const current = currentKey(key) ?? key;
  const renamed = current === key ? '' : `${key} was renamed ${current}: `;
  if (isSecretKey(current)) return current;
  throw new UsageError(`${renamed}${current} is not a secret key (they are ${SECRET_KEYS.join(', ')}); other keys go in config.json or ${envName(current)}`, 'invalid_argument', 'key');
}

export async function setSecret(ctx: CliContext, key: ConfigKey, flags: SecretFlags): Promise<void> {
  const implicitStdin = flags.secretStdin !== true && flags.secretFromEnv === undefined && process.stdin.isTTY !== true;
  const value = readSecret(implicitStdin ? { secretStdin: true } : flags, ctx.env);
  if (value === undefined) {
    throw new UsageError(`give the value on stdin (… | ${ctx.cliName} config set-secret ${key}) or with --secret-from-env VARIABLE; never as an argument, which shell history and ps keep`);
  }
  let changed;
  try {
    changed = setOperatorSecret({ home: ctx.home, env: ctx.env }, key, value);
  } catch (err) {
    if (err instanceof ConfigError) throw new UsageError(err.message, 'invalid_value', 'value');
    throw err;
  }
  ctx.out.result({ object: 'config_secret', key, sealed: true, removed_plain_copy: changed.removed_plain_copy }, () => {
    ctx.out.line(`sealed ${key} under the master key in ${join(ctx.home, SEALED_CONFIG_FILE)}`);
    if (changed.removed_plain_copy) ctx.out.note('removed its plain copy from config.json');
  });
  const overriding = [envName(key), fileEnvName(key)].filter((name) => (ctx.env[name] ?? '') !== '');
  if (overriding.length > 0) ctx.out.warn(`${overriding.join(' and ')} set in this shell win over the sealed value for a daemon started from it`);
  const daemon = readDaemonState(dataPaths(ctx.home).daemonState);
  if (daemon !== null) ctx.out.note(`the daemon (pid ${daemon.pid}) reads it when it starts again: ${ctx.cliName} daemon stop && ${ctx.cliName} daemon start`);
}
