import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { VERSION } from '../src/index.js';

const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as Record<string, any>;

describe('the package', () => {
  it('sends the version package.json has, runs on Node >= 20.19 and depends on nothing', () => {
    expect(VERSION).toBe(manifest.version);
    expect(manifest.engines).toEqual({ node: '>=20.19' });
    expect(manifest.type).toBe('module');
    expect(manifest.dependencies ?? {}).toEqual({});
  });
});
