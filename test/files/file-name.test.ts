import { describe, expect, it } from 'vitest';
import { isSafeFileName, MAX_FILE_NAME_BYTES, sanitizeFileName } from '../../src/files/file-name.js';

describe('sanitizeFileName', () => {
  it('keeps only the last part of a path, with either slash, so ../ cannot climb', () => {
    expect(sanitizeFileName('../../etc/passwd')).toBe('passwd');
    expect(sanitizeFileName('..\\..\\windows\\win.ini')).toBe('win.ini');
    expect(sanitizeFileName('/abs/report.pdf')).toBe('report.pdf');
  });

  it('never answers ., .., a hidden name or an empty one', () => {
    expect(sanitizeFileName('..')).toBe('file');
    expect(sanitizeFileName('.')).toBe('file');
    expect(sanitizeFileName('../')).toBe('file');
    expect(sanitizeFileName('.bashrc')).toBe('bashrc');
    expect(sanitizeFileName('   ')).toBe('file');
  });

  it('drops NUL and other control characters', () => {
    expect(sanitizeFileName('evil\u0000.txt')).toBe('evil.txt');
    expect(sanitizeFileName('a\nb\rc\td\u007f\u0085.csv')).toBe('abcd.csv');
  });

  it('drops right-to-left marks, overrides and isolates, so a name reads as it is', () => {
    expect(sanitizeFileName('invoice\u202Efdp.exe')).toBe('invoicefdp.exe');
    expect(sanitizeFileName('\u200Freport\u2067x\u2069\u200B.pdf')).toBe('reportx.pdf');
  });

  it('caps a 300-character name at the byte limit and keeps its extension', () => {
    const name = sanitizeFileName(`${'a'.repeat(300)}.pdf`);
    expect(Buffer.byteLength(name)).toBeLessThanOrEqual(MAX_FILE_NAME_BYTES);
    expect(name.endsWith('.pdf')).toBe(true);
    expect(name.startsWith('aaaa')).toBe(true);
  });

  it('never cuts a multi-byte character in half', () => {
    const name = sanitizeFileName('é'.repeat(300));
    expect(Buffer.byteLength(name)).toBeLessThanOrEqual(MAX_FILE_NAME_BYTES);
    expect(name).toBe('é'.repeat(MAX_FILE_NAME_BYTES / 2));
  });

  it('leaves an ordinary name as it is, and says which names are safe', () => {
    expect(sanitizeFileName('Quarterly report (v2).pdf')).toBe('Quarterly report (v2).pdf');
    expect(isSafeFileName('Quarterly report (v2).pdf')).toBe(true);
    expect(isSafeFileName('../x')).toBe(false);
    expect(isSafeFileName('')).toBe(false);
  });
});
