import { describe, expect, it } from 'vitest';
import { MAX_NAME_BYTES, sanitiseFileName, uniqueFileName } from '../../src/run-files/file-names.js';

describe('sanitiseFileName', () => {
  it('keeps an ordinary name as it is, Unicode included', () => {
    expect(sanitiseFileName('report.pdf')).toBe('report.pdf');
    expect(sanitiseFileName('Übersicht 2026 (final).xlsx')).toBe('Übersicht 2026 (final).xlsx');
  });

  it('never leaves a path: separators become _, and leading dots go, so ../ cannot climb', () => {
    expect(sanitiseFileName('../../etc/passwd')).toBe('_.._etc_passwd');
    expect(sanitiseFileName('..\\..\\boot.ini')).toBe('_.._boot.ini');
    expect(sanitiseFileName('/abs/path.txt')).toBe('_abs_path.txt');
    expect(sanitiseFileName('reports/2026/q1.csv')).toBe('reports_2026_q1.csv');
    expect(sanitiseFileName('..')).toBe('file');
    expect(sanitiseFileName('.hidden')).toBe('hidden');
  });

  it('replaces NUL, control characters, and the bidirectional and zero-width marks that disguise a name', () => {
    expect(sanitiseFileName('a\u0000b.txt')).toBe('a_b.txt');
    expect(sanitiseFileName('line\nbreak\r\t.txt')).toBe('line_break__.txt');
    expect(sanitiseFileName('del\u007f\u0085.txt')).toBe('del__.txt');
    expect(sanitiseFileName('invoice\u202Efdp.exe')).toBe('invoice_fdp.exe');
    expect(sanitiseFileName('a\u2066b\u2069\u200Bc\uFEFF.txt')).toBe('a_b__c_.txt');
    expect(sanitiseFileName('q<u>o:t"e|s?*.txt')).toBe('q_u_o_t_e_s__.txt');
  });

  it('cuts a long name to 200 bytes of UTF-8 at a character boundary, keeping its extension', () => {
    const long = sanitiseFileName(`${'a'.repeat(300)}.pdf`);
    expect(Buffer.byteLength(long)).toBe(MAX_NAME_BYTES);
    expect(long).toBe(`${'a'.repeat(196)}.pdf`);
    const wide = sanitiseFileName(`${'€'.repeat(100)}.csv`);
    expect(Buffer.byteLength(wide)).toBeLessThanOrEqual(MAX_NAME_BYTES);
    expect(wide).toBe(`${'€'.repeat(65)}.csv`);
    // An "extension" too long to be one is cut like the rest.
    expect(Buffer.byteLength(sanitiseFileName(`x.${'e'.repeat(300)}`))).toBe(MAX_NAME_BYTES);
  });

  it('gives device names Windows reserves a prefix, and an empty name one of its own', () => {
    expect(sanitiseFileName('CON.txt')).toBe('_CON.txt');
    expect(sanitiseFileName('nul')).toBe('_nul');
    expect(sanitiseFileName('   ')).toBe('file');
  });
});

describe('uniqueFileName', () => {
  it('numbers a name already taken before its extension, ignoring case, within the byte limit', () => {
    const taken = new Set<string>();
    expect(uniqueFileName('data.csv', taken)).toBe('data.csv');
    expect(uniqueFileName('data.csv', taken)).toBe('data (2).csv');
    expect(uniqueFileName('DATA.csv', taken)).toBe('DATA (3).csv');
    const long = `${'a'.repeat(196)}.pdf`;
    expect(uniqueFileName(long, taken)).toBe(long);
    const second = uniqueFileName(long, taken);
    expect(Buffer.byteLength(second)).toBe(MAX_NAME_BYTES);
    expect(second.endsWith(' (2).pdf')).toBe(true);
  });
});
