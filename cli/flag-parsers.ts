import { readFileSync } from 'node:fs';
import { InvalidArgumentError } from 'commander';
import { UsageError } from './cli-errors.js';

/** Commander argument parsers: a bad value is a usage error (exit 2) naming the flag's expectation. */
export function integerFlag(min: number, max: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min || n > max) throw new InvalidArgumentError(`expected a whole number from ${min} to ${max}`);
    return n;
  };
}

export function nonNegativeNumberFlag(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0) throw new InvalidArgumentError('expected a non-negative number');
  return n;
}

export function positiveNumberFlag(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n <= 0) throw new InvalidArgumentError('expected a number above 0');
  return n;
}

const AGO = /^(\d+)([smhd])$/;
const UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** A point in time given as an RFC 3339 time (`2026-11-25T09:00:00Z`) or as how long ago (`30m`, `2h`, `7d`), as ISO. */
export function sinceFlag(now: () => number = Date.now) {
  return (value: string): string => {
    const ago = AGO.exec(value.trim());
    if (ago !== null) return new Date(now() - Number(ago[1]) * UNIT_MS[ago[2] as keyof typeof UNIT_MS]).toISOString();
    const at = Date.parse(value);
    if (!/^\d{4}-\d{2}-\d{2}T/.test(value) || Number.isNaN(at)) throw new InvalidArgumentError('expected an RFC 3339 time (2026-11-25T09:00:00Z) or how long ago (30m, 2h, 7d)');
    return new Date(at).toISOString();
  };
}

/** A point in time given as an RFC 3339 time or as how long from now (`12h`, `30d`), as ISO. */
export function laterFlag(now: () => number = Date.now) {
  return (value: string): string => {
    const after = AGO.exec(value.trim());
    if (after !== null) return new Date(now() + Number(after[1]) * UNIT_MS[after[2] as keyof typeof UNIT_MS]).toISOString();
    const at = Date.parse(value);
    if (!/^\d{4}-\d{2}-\d{2}T/.test(value) || Number.isNaN(at)) throw new InvalidArgumentError('expected an RFC 3339 time (2026-12-25T09:00:00Z) or how long from now (12h, 30d)');
    return new Date(at).toISOString();
  };
}

/** Lets a flag repeat: `--input a=1 --input b=2`. */
export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/** `key=value` pairs into an object; values stay strings (use a JSON flag for typed values). */
export function parseKeyValues(pairs: readonly string[], flag: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new UsageError(`${flag} takes key=value, got '${pair}'`, 'usage_error', flag);
    out[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return out;
}

/** A JSON object given inline (`'{"a":1}'`) or as `@path/to/file.json`. */
export function readJsonObject(value: string, flag: string): Record<string, unknown> {
  let text = value;
  if (value.startsWith('@')) {
    const path = value.slice(1);
    try {
      text = readFileSync(path, 'utf8');
    } catch (err) {
      throw new UsageError(`${flag}: cannot read ${path} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`, 'unreadable_file', flag);
    }
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new UsageError(`${flag} must be a JSON object or @file.json (${(err as Error).message})`, 'usage_error', flag);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new UsageError(`${flag} must be a JSON object`, 'usage_error', flag);
  return parsed as Record<string, unknown>;
}

/** Text given as an argument, or read from a file, or from stdin when the file is `-`. */
export function readText(path: string, flag: string): string {
  try {
    return readFileSync(path === '-' ? 0 : path, 'utf8');
  } catch (err) {
    throw new UsageError(`${flag}: cannot read ${path === '-' ? 'stdin' : path} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`, 'unreadable_file', flag);
  }
}
