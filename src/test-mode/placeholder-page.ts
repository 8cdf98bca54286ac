import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../package-root.js';

/** Where a test-mode run "goes": a reserved name (RFC 2606) that never resolves, so nothing could reach it. */
export const PLACEHOLDER_URL = 'https://placeholder.errand-test.invalid/';
/** The text the evidence of a test-mode success quotes, as it is on the placeholder page. */
export const PLACEHOLDER_TEXT = 'Errand test-mode placeholder page';

/** The evidence screenshot of every test-mode run: a PNG shipped in templates/test-mode/, read once. */
export function placeholderScreenshot(templatesDir: string = join(packageRoot(), 'templates', 'test-mode')): () => Buffer {
  let png: Buffer | null = null;
  return () => (png ??= readFileSync(join(templatesDir, 'placeholder-page.png')));
}
