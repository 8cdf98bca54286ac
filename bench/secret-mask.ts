/**
 * What masking a run's secrets in every form (issue 21, item 7) costs the recorder and the tool results:
 *   npx tsx bench/secret-mask.ts [rounds=50]
 * `SecretMask#text` on outputs of the sizes it meets: 4 KB (the most of a step's output that is kept), 40 KB (the
 * most a code call returns: stdout and stderr of 20 KB each) and 1 MB (a large MCP result or page text), holding no
 * secret (the usual case) or ten of them in assorted forms, for a run with 1 and with 5 secrets of 40 characters (tokens:
 * letters, digits and `_`, which most encodings leave as they are), and with 1 password of 24 holding the characters
 * that URLs and HTML escape (`pw` rows: its forms in URLs inside URLs and in HTML are forms of their own).
 * Beside it, the same loop over the three forms masked before issue 21 (the value, in JSON, in a URL), so the
 * figure that counts is the cost the other forms add. Median over `rounds` calls, after a warm-up.
 */
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { secretForms } from '../src/connections/secret-forms.js';
import { SecretMask } from '../src/connections/secret-mask.js';

const SIZES = [4_000, 40_000, 1_000_000];
/** A password as people choose them: every character a URL or HTML escaper changes, and a space. */
const PASSWORD = `Tr0ub4dor&3 <"x'!/%+>y_z`;

function token(i: number): string {
  return `ghp_${i}${'16C7e42F292c6912E7710c838347Ae178B4a'.slice(i % 5)}`.slice(0, 40).padEnd(40, 'x');
}

/** Log-like text of `size` characters; with `secrets`, ten of them spread through it in assorted forms. */
function output(size: number, secrets: string[]): string {
  const line = 'GET /api/v2/items?page=3 200 12ms user-agent=curl/8.5.0 {"id": 9182, "name": "widget", "tags": ["a", "b"]}\n';
  let text = line.repeat(Math.ceil(size / line.length)).slice(0, size);
  for (let i = 0; i < 10 && secrets.length > 0; i++) {
    const secret = secrets[i % secrets.length]!;
    const forms = [secret, Buffer.from(secret).toString('base64'), Buffer.from(secret).toString('hex'), [...secret].reverse().join(''), encodeURIComponent(encodeURIComponent(secret))];
    const at = Math.floor(((i + 0.5) * text.length) / 10);
    text = text.slice(0, at) + forms[i % forms.length]! + text.slice(at);
  }
  return text;
}

/** The mask as it was before issue 21: three forms per secret. */
function exactOnly(secrets: string[]): (text: string) => string {
  const forms = secrets.flatMap((s) => [s, JSON.stringify(s).slice(1, -1), encodeURIComponent(s)]).sort((a, b) => b.length - a.length);
  return (text) => {
    let out = text;
    for (const form of forms) if (out.includes(form)) out = out.split(form).join('[secret:x]');
    return out;
  };
}

function medianMs(rounds: number, fn: () => unknown): number {
  for (let i = 0; i < 5; i++) fn();
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const start = performance.now();
    fn();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

export interface MaskFigure {
  /** `1`, `5`: tokens; `1 pw`: the password. */
  secrets: string;
  forms: number;
  size: number;
  holding: boolean;
  exactMs: number;
  allMs: number;
}

export function runSecretMaskBench(rounds: number): MaskFigure[] {
  const figures: MaskFigure[] = [];
  const runs: [string, string[]][] = [
    ['1', [token(0)]],
    ['5', Array.from({ length: 5 }, (_, i) => token(i))],
    ['1 pw', [PASSWORD]],
  ];
  for (const [count, secrets] of runs) {
    const mask = new SecretMask(secrets.map((value, i) => ({ name: `s${i}`, value })));
    const exact = exactOnly(secrets);
    const forms = secrets.reduce((n, s) => n + secretForms(s).length, 0);
    for (const size of SIZES) {
      for (const holding of [false, true]) {
        const text = output(size, holding ? secrets : []);
        figures.push({ secrets: count, forms, size, holding, exactMs: medianMs(rounds, () => exact(text)), allMs: medianMs(rounds, () => mask.text(text)) });
      }
    }
  }
  return figures;
}

export function printSecretMaskBench(figures: MaskFigure[]): void {
  console.log('secret mask bench: SecretMask#text, median ms per call');
  console.log('  secrets  forms      size  secrets in it  3 forms ms  every form ms  of 3 forms  every form MB/s');
  for (const f of figures) {
    console.log(
      `  ${f.secrets.padStart(7)}  ${String(f.forms).padStart(5)}  ${String(f.size).padStart(8)}  ${(f.holding ? 'ten' : 'none').padStart(13)}  ` +
        `${f.exactMs.toFixed(3).padStart(10)}  ${f.allMs.toFixed(3).padStart(13)}  ${`${(f.allMs / Math.max(f.exactMs, 1e-6)).toFixed(1)}x`.padStart(10)}  ` +
        `${(f.size / 1e6 / (f.allMs / 1000)).toFixed(0).padStart(15)}`,
    );
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  printSecretMaskBench(runSecretMaskBench(Number(process.argv[2] ?? 50)));
}
