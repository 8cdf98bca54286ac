import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  dropRetiredKeys,
  loadMasterKey,
  loadMasterKeyring,
  MASTER_KEY_ENV,
  masterKeyId,
  PREVIOUS_MASTER_KEYS_ENV,
  replaceMasterKeyFile,
} from '../../src/secrets/master-key.js';
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

describe('loadMasterKeyring', () => {
  let dir: ReturnType<typeof tempDir>;
  beforeEach(() => {
    dir = tempDir();
  });
  afterEach(() => dir.remove());

  it('names each key by an id that does not reveal it', () => {
    const key = randomBytes(32);
    const ring = loadMasterKeyring({ home: dir.path, env: { [MASTER_KEY_ENV]: key.toString('base64') } });
    expect(ring.current().id).toBe(masterKeyId(key));
    expect(ring.current().id).toMatch(/^[0-9a-f]{16}$/);
    expect(key.toString('hex')).not.toContain(ring.current().id);
  });

  it('holds ERRAND_MASTER_KEY and the keys of ERRAND_MASTER_KEY_PREVIOUS', () => {
    const [current, a, b] = [randomBytes(32), randomBytes(32), randomBytes(32)];
    const ring = loadMasterKeyring({
      home: dir.path,
      env: { [MASTER_KEY_ENV]: current.toString('base64'), [PREVIOUS_MASTER_KEYS_ENV]: `${a.toString('base64')}, ${b.toString('base64')}` },
    });
    expect(ring.source).toBe('env');
    expect(ring.all().map((k) => k.id)).toEqual([current, a, b].map(masterKeyId));
    expect(ring.byId(masterKeyId(b))?.equals(b)).toBe(true);
  });

  it('sees a key file replaced by a rotation, and keeps the retired key until it is dropped', () => {
    const ring = loadMasterKeyring({ home: dir.path, env: {} });
    const before = ring.current();
    const nextId = replaceMasterKeyFile(dir.path);
    expect(ring.current().id).toBe(nextId);
    expect(ring.byId(before.id)?.equals(before.key)).toBe(true);
    expect(readdirSync(dir.path).filter((f) => f.startsWith('master.key.retired-'))).toEqual([`master.key.retired-${before.id}`]);
    expect(statSync(join(dir.path, `master.key.retired-${before.id}`)).mode & 0o777).toBe(0o600);
    expect(dropRetiredKeys(dir.path)).toEqual([before.id]);
    expect(loadMasterKeyring({ home: dir.path, env: {} }).byId(before.id)).toBeUndefined();
  });
});
