import { describe, expect, it } from 'vitest';
import { SecretMask } from '../../src/connections/secret-mask.js';
import { SecretInFile, SecretScan } from '../../src/run-files/secret-scan.js';

const SECRET = 'sk_live_4f9a2c7e1b8d';
const mask = new SecretMask([{ name: 'stripe', value: SECRET }]);

async function* chunks(...parts: (string | Buffer)[]): AsyncIterable<Uint8Array> {
  for (const part of parts) yield typeof part === 'string' ? Buffer.from(part, 'utf8') : part;
}

async function copied(source: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const out: Buffer[] = [];
  for await (const chunk of source) out.push(Buffer.from(chunk));
  return Buffer.concat(out);
}

describe('SecretScan', () => {
  it('passes a file without the secret through byte for byte, binary included', async () => {
    const binary = Buffer.from([0, 255, 128, 10, 13, 0xe2, 0x80]);
    expect(await copied(new SecretScan(mask).through(chunks('a,b\n', binary, 'sk_live_ is not it')))).toEqual(Buffer.concat([Buffer.from('a,b\n'), binary, Buffer.from('sk_live_ is not it')]));
  });

  it('stops at the secret as it is, cut in two by a chunk boundary, or in a form the mask knows (base64, hex, reversed)', async () => {
    const forms = [SECRET, Buffer.from(SECRET).toString('base64'), Buffer.from(SECRET).toString('hex'), [...SECRET].reverse().join('')];
    for (const form of forms) {
      const half = Math.floor(form.length / 2);
      await expect(copied(new SecretScan(mask).through(chunks(Buffer.from([0, 1, 2]), `x${form.slice(0, half)}`, `${form.slice(half)}y`)))).rejects.toEqual(new SecretInFile('[secret:stripe]'));
    }
  });

  it('finds a secret that is not ASCII by its UTF-8 bytes', async () => {
    const scan = new SecretScan(new SecretMask([{ name: 'pin', value: 'Grüße-Schlüssel-42' }]));
    const bytes = Buffer.from('head Grüße-Schlüssel-42 tail', 'utf8');
    await expect(copied(scan.through(chunks(bytes.subarray(0, 9), bytes.subarray(9))))).rejects.toBeInstanceOf(SecretInFile);
  });

  it('has nothing to look for in a run without secrets', async () => {
    const source = chunks('anything');
    expect(new SecretScan(SecretMask.none).through(source)).toBe(source);
  });
});
