import { describe, expect, it } from 'vitest';
import { blockTokens, requestTokens } from '../../src/engine/token-bound.js';
import { browserResultText } from '../../src/sandbox/browser-result-text.js';
import { browserTool, parseBrowserInput } from '../../src/engine/tools/browser-tool.js';
import { codeTool, parseCodeInput } from '../../src/engine/tools/code-tool.js';
import { codeResultText } from '../../src/sandbox/code-result-text.js';
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

  it('takes an element by ref, selector or text, or a point, with the new actions', () => {
    expect(parseBrowserInput({ action: 'click', ref: 'e12', double: true, button: 'right', modifiers: ['Control', 'Control'] })).toEqual({
      action: 'click',
      ref: 'e12',
      button: 'right',
      clickCount: 2,
      modifiers: ['Control'],
    });
    expect(parseBrowserInput({ action: 'click', x: 10.5, y: 20 })).toEqual({ action: 'click', x: 10.5, y: 20 });
    expect(parseBrowserInput({ action: 'hover', text: 'Products' })).toEqual({ action: 'hover', text: 'Products' });
    expect(parseBrowserInput({ action: 'type', ref: 'f1e3', text: '03/31/2010' })).toEqual({ action: 'type', ref: 'f1e3', text: '03/31/2010' });
    expect(parseBrowserInput({ action: 'select', ref: 'e4', values: ['Red', 'b'] })).toEqual({ action: 'select', ref: 'e4', values: ['Red', 'b'] });
    expect(parseBrowserInput({ action: 'press', key: 'Shift+Tab' })).toEqual({ action: 'press', key: 'Shift+Tab' });
    expect(parseBrowserInput({ action: 'drag', ref: 'e1', to_ref: 'e2' })).toEqual({ action: 'drag', ref: 'e1', to: { ref: 'e2' } });
    expect(parseBrowserInput({ action: 'drag', x: 1, y: 2, to_x: 3, to_y: 4 })).toEqual({ action: 'drag', x: 1, y: 2, to: { x: 3, y: 4 } });
    expect(parseBrowserInput({ action: 'scroll', direction: 'down', ref: 'e9' })).toEqual({ action: 'scroll', direction: 'down', at: { ref: 'e9' } });
    expect(parseBrowserInput({ action: 'scroll', text: 'Reviews' })).toEqual({ action: 'scroll', toText: 'Reviews' });
    expect(parseBrowserInput({ action: 'wait', text: 'Loading', gone: true, seconds: 5 })).toEqual({ action: 'wait', text: 'Loading', gone: true, seconds: 5 });
    expect(parseBrowserInput({ action: 'wait', seconds: 2 })).toEqual({ action: 'wait', seconds: 2 });
    expect(parseBrowserInput({ action: 'dialog', accept: true, text: 'Bob' })).toEqual({ action: 'dialog', accept: true, text: 'Bob' });
    expect(parseBrowserInput({ action: 'tab', index: 1, close: true })).toEqual({ action: 'tab', index: 1, close: true });
    expect(parseBrowserInput({ action: 'read_text', offset: 20000 })).toEqual({ action: 'read_text', offset: 20000 });
    expect(parseBrowserInput({ action: 'snapshot', ref: 'e40' })).toEqual({ action: 'snapshot', ref: 'e40' });
    for (const action of ['back', 'forward', 'reload'] as const) expect(parseBrowserInput({ action })).toEqual({ action });
  });

  it('says what is missing', () => {
    expect(parseBrowserInput({ action: 'click' })).toMatch(/selector/);
    expect(parseBrowserInput({ action: 'type', text: 'x' })).toBe('type needs a `ref` (or a `selector`) and a `text`');
    expect(parseBrowserInput({ action: 'select', ref: 'e1', values: [] })).toMatch(/values/);
    expect(parseBrowserInput({ action: 'drag', ref: 'e1' })).toMatch(/to_ref/);
    expect(parseBrowserInput({ action: 'click', ref: 'e1', modifiers: ['Hyper'] })).toMatch(/modifiers/);
    expect(parseBrowserInput({ action: 'wait', seconds: 60 })).toMatch(/0 to 30/);
    expect(parseBrowserInput({ action: 'dialog' })).toMatch(/accept/);
    expect(parseBrowserInput({ action: 'tab', index: -1 })).toMatch(/index/);
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

  it('lists the tabs when there are several, a dialog waiting for an answer, and how much of the page the text is', () => {
    const text = browserResultText({
      ok: true,
      text: 'page text',
      extent: 'characters 0 to 20000 of 45000; read_text {offset: 20000} reads on',
      url: 'http://127.0.0.1:8000/b',
      title: 'B',
      status: 200,
      problem: null,
      screenshot: null,
      tabs: [
        { index: 0, url: 'http://127.0.0.1:8000/a', title: 'A', current: false },
        { index: 1, url: 'http://127.0.0.1:8000/b', title: 'B', current: true },
      ],
      dialog: { type: 'prompt', message: 'Your name?', defaultValue: 'anon' },
      elements: [],
    });
    expect(text).toBe(
      [
        'url: http://127.0.0.1:8000/b',
        'title: B',
        'http status: 200',
        'tabs (tab {index} switches):',
        '  0: A - http://127.0.0.1:8000/a',
        '  1 (current): B - http://127.0.0.1:8000/b',
        'DIALOG: a prompt "Your name?" holds the page (default answer "anon"; dialog {accept: true, text} answers it); answer with dialog {accept: true} or {accept: false}',
        'shown: characters 0 to 20000 of 45000; read_text {offset: 20000} reads on',
        '',
        'page text',
      ].join('\n'),
    );
  });

  it('describes itself to the model in at most 2,650 characters of spec (1,913 before references and the new actions)', () => {
    expect(JSON.stringify(browserTool.spec).length).toBeLessThanOrEqual(2_650);
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
