import { randomBytes } from 'node:crypto';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadMasterKey, MASTER_KEY_ENV } from '../../src/secrets/master-key.js';
import { tempDir } from '../fixtures/temp-dir.js';

describe('loadMasterKey', () => {
  let dir: ReturnType<typeof tempDir>;
  beforeEach(() => {
    dir = tempDir();
  });
  afterEach(() => dir.remove());

  it('creates <home>/master.key with 32 random bytes, readable by the owner only, and reuses it', () => {
    const key = loadMasterKey({ home: dir.path, env: {} });
    const path = join(dir.path, 'master.key');
    expect(key).toHaveLength(32);
    expect(readFileSync(path).equals(key)).toBe(true);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(loadMasterKey({ home: dir.path, env: {} }).equals(key)).toBe(true);
  });

  it('creates the data directory when it does not exist yet', () => {
    const home = join(dir.path, 'fresh', 'home');
    expect(loadMasterKey({ home, env: {} })).toHaveLength(32);
  });

  it('prefers ERRAND_MASTER_KEY and then touches no file', () => {
    const key = randomBytes(32);
    expect(loadMasterKey({ home: dir.path, env: { [MASTER_KEY_ENV]: key.toString('base64') } }).equals(key)).toBe(true);
    expect(() => statSync(join(dir.path, 'master.key'))).toThrow(/ENOENT/);
  });

  it('refuses keys of the wrong length instead of using them', () => {
    expect(() => loadMasterKey({ home: dir.path, env: { [MASTER_KEY_ENV]: randomBytes(16).toString('base64') } })).toThrow(/32 bytes/);
    writeFileSync(join(dir.path, 'master.key'), randomBytes(31));
    expect(() => loadMasterKey({ home: dir.path, env: {} })).toThrow(/exactly 32 bytes/);
  });
});
