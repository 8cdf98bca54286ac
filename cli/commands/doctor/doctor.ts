import type { Command } from 'commander';
import { SilentExit } from '../../cli-errors.js';
import { contextOf, type CliContext } from '../../context.js';
import { examples } from '../../help.js';
import { checkActiveRunCounts, checkApiKey, checkConfig, checkDaemon, checkDataDir, checkModelProvider, checkSandbox, type CheckResult } from './checks.js';

export function registerDoctor(program: Command): void {
  program
    .command('doctor')
    .description('check the set-up: data directory, configuration, daemon, API key, model provider, sandbox (exit 1 if any check fails)')
    .addHelpText('after', examples('errand doctor', 'errand doctor --json | jq \'.checks[] | select(.level != "ok")\''))
    .action(async (_flags: unknown, cmd: Command) => {
      await doctor(contextOf(cmd));
    });
}

export async function doctor(ctx: CliContext): Promise<CheckResult[]> {
  const input = { home: ctx.home, env: ctx.env };
  const results: CheckResult[] = [checkDataDir(input)];
  const { result: configResult, config } = checkConfig(input);
  results.push(configResult);
  const daemon = await checkDaemon(input);
  results.push(daemon.result, await checkApiKey(input, daemon.reachable), await checkActiveRunCounts(input));
  if (config) results.push(await checkModelProvider(input, config), await checkSandbox(config));

  const ok = results.every((r) => r.level !== 'fail');
  ctx.out.result({ ok, checks: results }, () => {
    const width = Math.max(...results.map((r) => r.check.length));
    for (const r of results) ctx.out.line(`${r.level.padEnd(4)}  ${r.check.padEnd(width)}  ${r.detail}`);
  });
  if (!ok) throw new SilentExit(1);
  return results;
}
