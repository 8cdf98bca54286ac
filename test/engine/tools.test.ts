import { describe, expect, it } from 'vitest';
import { blockTokens, requestTokens } from '../../src/engine/token-bound.js';
import { browserResultText } from '../../src/engine/tools/browser-result.js';
import { browserTool, parseBrowserInput } from '../../src/engine/tools/browser-tool.js';
import { codeResultText, codeTool, parseCodeInput } from '../../src/engine/tools/code-tool.js';
import { createFinishTool, parseFinishInput } from '../../src/engine/tools/finish-tool.js';
import { parseWaitForEmailInput } from '../../src/mail/run-mailbox/wait-for-email-tool.js';
import { UserSchemas } from '../../src/runs/user-schemas.js';

describe('browser tool input', () => {
  it('accepts the actions of the protocol', () => {
    expect(parseBrowserInput({ action: 'navigate', url: 'https://example.test/a?b=1' })).toEqual({ action: 'navigate', url: 'https://example.test/a?b=1' });
    expect(parseBrowserInput({ action: 'click', text: 'Next' })).toEqual({ action: 'click', text: 'Next' });
    expect(parseBrowserInput({ action: 'type', selector: '#q', text: 'hi', submit: true })).toEqual({ action: 'type', selector: '#q', text: 'hi', submit: true });
    expect(parseBrowserInput({ action: 'scroll' })).toEqual({ action: 'scroll', direction: 'down' });
    expect(parseBrowserInput({ action: 'screenshot', url: 'ignored' })).toEqual({ action: 'screenshot' });
  });

  it('refuses URLs that would reach past the web into the machine', () => {
    for (const url of ['file:///etc/passwd', 'chrome://settings', 'data:text/html,hi', 'javascript:alert(1)']) {
      expect(parseBrowserInput({ action: 'navigate', url })).toMatch(/only http and https/);
    }
    expect(parseBrowserInput({ action: 'navigate', url: '/relative' })).toMatch(/not an absolute URL/);
  });

  it('says what is missing', () => {
    expect(parseBrowserInput({ action: 'click' })).toMatch(/selector/);
    expect(parseBrowserInput({ action: 'press' })).toMatch(/key/);
    expect(parseBrowserInput({ action: 'scroll', amount: -5 })).toMatch(/positive integer/);
    expect(parseBrowserInput({ action: 'fly' })).toMatch(/unknown browser action "fly"/);
  });

  it('puts a page problem first, with what to do about it', () => {
    const text = browserResultText({
      ok: false,
      text: 'could not load',
      url: 'http://127.0.0.1:9/',
      title: null,
      status: null,
      problem: { kind: 'connection_refused', message: 'net::ERR_CONNECTION_REFUSED' },
      screenshot: null,
      extent: null,
      tabs: [],
      dialog: null,
      elements: [],
    });
    expect(text.split('\n')[0]).toBe('PROBLEM: connection_refused: net::ERR_CONNECTION_REFUSED');
    expect(text).toContain('site_down');
  });
});

describe('code tool', () => {
  it('checks the language and the program', () => {
    expect(parseCodeInput({ language: 'ruby', code: 'puts 1' })).toMatch(/bash, python, node/);
    expect(parseCodeInput({ language: 'bash', code: '  ' })).toMatch(/program text/);
    expect(parseCodeInput({ language: 'node', code: '1' })).toEqual({ language: 'node', code: '1' });
  });

  it('reports a timeout and cuts long output in the middle', () => {
    const long = `${'a'.repeat(15_000)}${'z'.repeat(15_000)}`;
    const text = codeResultText({ exitCode: null, stdout: long, stderr: '', timedOut: true, durationMs: 5 }, 60);
    expect(text).toContain('killed after the 60 s limit');
    expect(text).toContain('characters omitted');
    expect(text.length).toBeLessThan(11_000);
    expect(text).toContain('aaa');
    expect(text).toContain('zzz');
  });
});

describe('finish tool input', () => {
  it('refuses a failure_reason outside the six', () => {
    expect(parseFinishInput({ result: null, failure_reason: 'blocked' })).toMatch(/failure_reason must be one of/);
  });

  it('reads a success and a failure', () => {
    expect(parseFinishInput({ result: { a: 1 }, confidence: 'high', evidence_screenshot: 'latest' })).toMatchObject({
      result: { a: 1 },
      confidence: 'high',
      failureReason: null,
      evidenceScreenshot: 'latest',
    });
    expect(parseFinishInput({ result: null, failure_reason: 'captcha', confidence: 'sure' })).toMatchObject({
      result: undefined,
      confidence: null,
      failureReason: 'captcha',
    });
  });
});

describe('token bounds', () => {
  it('counts text by its UTF-8 bytes and an image at the most one can cost', () => {
    expect(blockTokens({ type: 'text', text: 'héllo' })).toBeGreaterThanOrEqual(6);
    const image = blockTokens({ type: 'image', mediaType: 'image/png', data: 'x'.repeat(1_000_000) });
    expect(image).toBeGreaterThanOrEqual(1_600);
    expect(image).toBeLessThan(2_000);
  });

  it('bounds a request by at least its bytes', () => {
    const tools = [browserTool.spec, codeTool(60).spec, createFinishTool({ outputSchema: null, schemas: new UserSchemas({ budgetMs: 5_000 }) }).spec];
    const system = 's'.repeat(5_000);
    const messages = [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'x'.repeat(3_000) }] }];
    expect(requestTokens(system, tools, messages)).toBeGreaterThan(5_000 + 3_000 + JSON.stringify(tools).length);
  });
});

describe('wait_for_email input', () => {
  it('takes optional filters and a timeout of 1 to 600 s, 120 by default', () => {
    expect(parseWaitForEmailInput({})).toEqual({ timeoutS: 120 });
    expect(parseWaitForEmailInput({ from: 'shop.test', subject_contains: 'code', timeout_s: 30 })).toEqual({ from: 'shop.test', subjectContains: 'code', timeoutS: 30 });
    expect(parseWaitForEmailInput({ timeout_s: 601 })).toMatch(/1 to 600/);
    expect(parseWaitForEmailInput({ timeout_s: 1.5 })).toMatch(/whole number/);
    expect(parseWaitForEmailInput({ from: '' })).toMatch(/`from`/);
  });
});
