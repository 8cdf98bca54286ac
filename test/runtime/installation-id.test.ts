import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { installationId } from '../../src/runtime/installation-id.js';
import { dataPaths } from '../../src/runtime/paths.js';
import { tempDir } from '../fixtures/temp-dir.js';

describe('installationId', () => {
  it('makes a random id on first use, keeps it in the data directory and answers it ever after', () => {
    const home = tempDir('errand-installation-');
    try {
      const id = installationId(home.path);
      expect(id).toMatch(/^[0-9a-f]{32}$/);
      expect(readFileSync(dataPaths(home.path).installationId, 'utf8').trim()).toBe(id);
      expect(installationId(home.path)).toBe(id);
    } finally {
      home.remove();
    }
  });

  it('differs between two data directories, whatever their paths', () => {
    const [first, second] = [tempDir('errand-installation-'), tempDir('errand-installation-')];
    try {
      expect(installationId(first.path)).not.toBe(installationId(second.path));
    } finally {
      first.remove();
      second.remove();
    }
  });

  it('refuses a file that does not hold an id', () => {
    const home = tempDir('errand-installation-');
    try {
      writeFileSync(dataPaths(home.path).installationId, 'not an id\n');
      expect(() => installationId(home.path)).toThrow(/installation-id is not an installation id/);
    } finally {
      home.remove();
    }
  });
});
