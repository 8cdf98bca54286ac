import type { Page } from 'playwright-core';
import type { PageProblem } from '../../../src/sandbox/protocol.js';

/** Classifies a failed navigation by Chromium's net error (or Playwright's timeout). */
export function navigationProblem(error: unknown): PageProblem {
  const message = (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
  if (message.includes('ERR_NAME_NOT_RESOLVED')) return { kind: 'dns_failure', message };
  if (message.includes('ERR_CONNECTION_REFUSED')) return { kind: 'connection_refused', message };
  return { kind: 'connection_failed', message };
}

export function statusProblem(status: number | null): PageProblem | null {
  return status !== null && status >= 500
    ? { kind: 'http_error', status, message: `the server answered HTTP ${status}` }
    : null;
}

/**
 * Looks for a captcha or bot challenge in the page itself. Challenge scripts count only on a near-empty page,
 * because many ordinary pages load an invisible reCAPTCHA without ever showing a challenge.
 */
export async function captchaProblem(page: Page): Promise<PageProblem | null> {
  const marker = await page.evaluate(findCaptchaMarker).catch(() => null);
  return marker === null ? null : { kind: 'captcha', message: `the page shows a captcha (${marker})` };
}

function findCaptchaMarker(): string | null {
  const hosts = ['recaptcha', 'hcaptcha.com', 'challenges.cloudflare.com'];
  const frame = Array.from(document.querySelectorAll('iframe')).find((f) => hosts.some((h) => f.src.includes(h)));
  if (frame !== undefined) return `challenge frame ${new URL(frame.src).host}`;
  const widget = document.querySelector('.g-recaptcha, .h-captcha, .cf-turnstile, .cf-challenge, #cf-challenge-running, #challenge-form');
  if (widget !== null) return `element ${widget.id === '' ? `.${widget.classList[0] ?? ''}` : `#${widget.id}`}`;
  const text = (document.body?.innerText ?? '').slice(0, 20_000);
  const phrase = /verify (?:that )?you(?:'re| are) (?:a )?human|i(?:['’]?m| am) not a robot/i.exec(text);
  if (phrase !== null) return `text "${phrase[0]}"`;
  const script = Array.from(document.scripts).find((s) => hosts.some((h) => s.src.includes(h)));
  if (script !== undefined && text.trim().length < 1_000) return `challenge script ${new URL(script.src).host}`;
  return null;
}
