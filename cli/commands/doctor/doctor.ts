import type { Command } from 'commander';
import { SilentExit } from '../../cli-errors.js';
import { contextOf, type CliContext } from '../../context.js';
import { examples } from '../../help.js';
import {
  checkActiveRunCounts,
  checkApiKey,
  checkConfig,
  checkDaemon,
  checkDaemonEmail,
  checkDaemonModelProvider,
  checkDaemonSandbox,
  checkDataDir,
  checkSandbox,
  checkSecrets,
  checkShellModelProvider,
  daemonStatusOf,
  type CheckResult,
} from './checks.js';

export function registerDoctor(program: Command): void {
  program
    .command('doctor')
    .description("check the set-up: data directory, configuration, the running daemon's model provider, sandboxes and email (asked through GET /v1/status), API key (exit 1 if any check fails)")
    .addHelpText('after', examples('errand doctor', 'errand doctor --json | jq \'.checks[] | select(.level != "ok")\''))
    .action(async (_flags: unknown, cmd: Command) => {
      await doctor(contextOf(cmd));
    });
}

export async function doctor(ctx: CliContext): Promise<CheckResult[]> {
  const input = { home: ctx.home, env: ctx.env };
  const results: CheckResult[] = [checkDataDir(input)];
  const { result: configResult, resolved } = checkConfig(input);
  results.push(configResult);
  if (resolved !== null) results.push(checkSecrets(resolved));
  const config = resolved?.config ?? null;
  const daemon = await checkDaemon(input);
  const key = await checkApiKey(input, daemon.reachable);
  results.push(daemon.result, key.result, await checkActiveRunCounts(input));
  // What runs will meet is the running daemon's business, not this shell's: ask it when it answers.
  const reported = key.api === null ? null : await daemonStatusOf(key.api);
  if (reported !== null && 'status' in reported) {
    results.push(checkDaemonModelProvider(reported.status, ctx.cliName), ...checkDaemonSandbox(reported.status), checkDaemonEmail(reported.status));
  } else if (reported !== null) {
    results.push({ check: 'daemon status', level: 'fail', detail: `the daemon did not report its status (GET /v1/status): ${reported.problem}` });
  } else if (config) {
    results.push(await checkShellModelProvider(input, config), await checkSandbox(config));
  }

  const ok = results.every((r) => r.level !== 'fail');
  ctx.out.result({ ok, checks: results }, () => {
    const width = Math.max(...results.map((r) => r.check.length));
    for (const r of results) ctx.out.line(`${r.level.padEnd(4)}  ${r.check.padEnd(width)}  ${r.detail}`);
  });
  if (!ok) throw new SilentExit(1);
  return results;
}
