import { setFlagsFromString } from 'node:v8';
import type { RegExpEngine } from 'ajv/dist/types/index.js';

/**
 * A regular-expression engine for callers' schemas (`pattern`, `patternProperties`) that runs in linear time: V8's
 * experimental linear engine (the `l` flag). With the default backtracking engine, one `pattern` like `^(a|aa)+$`
 * and a 40-character input would block the daemon's event loop for seconds to hours. Patterns the linear engine
 * cannot run (backreferences, lookarounds) fail to compile, so the schema is refused with a 400. The linear engine
 * does not take the `u` flag, so Ajv must be made with `unicodeRegExp: false`.
 */
export function linearRegExpEngine(): RegExpEngine {
  // The flag only makes the `l` flag available; other regular expressions are unaffected.
  setFlagsFromString('--enable-experimental-regexp-engine');
  const engine = ((pattern: string, flags: string): RegExp => {
    try {
      return new RegExp(pattern, `${flags}l`);
    } catch (err) {
      throw new Error(`pattern /${pattern}/ cannot be used: ${(err as Error).message.replace(/^Invalid regular expression: /, '')}`);
    }
  }) as unknown as RegExpEngine;
  engine.code = 'new RegExp';
  return engine;
}
