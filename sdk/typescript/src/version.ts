/** The SDK's version, sent in its User-Agent; the same as package.json's (sdk/typescript/test/package.test.ts checks). */
export const VERSION = '0.1.0';
