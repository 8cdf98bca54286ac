/**
 * What the browser does for the computer action space (docs/api.md, Action spaces), on both sandbox drivers: the
 * viewport scaled to a smaller screenshot, keys typed into whatever has the focus (a secret among them, the field
 * showing discs), the mouse button pressed and released apart, a triple click, a drag through points with a key
 * held, and a key held down. Each action is judged by what the page got (its /log).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/driver.js';
import type { BrowserRequest, BrowserResult } from '../../src/sandbox/protocol.js';
import { TEST_DRIVERS } from '../fixtures/sandbox-drivers.js';
import { serveInSandbox, type SandboxSite } from '../fixtures/sandbox-site.js';
import { pngSize } from '../fixtures/png-size.js';

const signal = () => AbortSignal.timeout(60_000);
const SECRET = 'Pa55-w0rd!';

const LOG = `<script>function log(text) { fetch('/log', { method: 'POST', body: String(text) }); }</script>`;
/** Everything where a person would see it: fixed positions, so that points are known. */
const PAGES: Record<string, string> = {
  '/desk': `<!doctype html><title>Desk</title>${LOG}<style>body{margin:0} .at{position:fixed}</style>
<input class="at" id="name" aria-label="Name" style="left:100px;top:100px;width:200px;height:30px" onchange="log('name ' + this.value)">
<input class="at" id="secret" aria-label="Secret" style="left:100px;top:160px;width:200px;height:30px"
  onchange="log('secret ' + this.value.length + ' ' + getComputedStyle(this).webkitTextSecurity)">
<button class="at" style="left:100px;top:220px;width:120px;height:30px" onclick="if (event.detail === 3) log('triple')">Triple</button>
<canvas class="at" width="300" height="300" style="left:600px;top:100px;background:#eef"
  onmousedown="log('down ' + event.offsetX + ' ' + event.offsetY)"
  onmouseup="log('up ' + event.offsetX + ' ' + event.offsetY + ' shift ' + event.shiftKey)"></canvas>
<iframe class="at" src="/framed" style="left:100px;top:400px;width:300px;height:80px;border:0"></iframe>
<script>addEventListener('keyup', (e) => { if (e.key === 'F8') log('held F8'); });</script>`,
  '/framed': `<!doctype html><title>Framed</title>${LOG}<style>body{margin:0}</style>
<input aria-label="Framed" style="width:200px;height:30px" onchange="log('framed ' + this.value)">`,
};

describe.each(TEST_DRIVERS)('the computer actions on the $name driver', (driver) => {
  let stop: () => Promise<void>;
  let sandbox: Sandbox;
  let site: SandboxSite;
  const act = (request: BrowserRequest): Promise<BrowserResult> => sandbox.browser(request, signal());
  const logged = (entry: string): Promise<string[]> => site.logged(entry);

  beforeAll(async () => {
    if (!driver.available) return;
    const started = await driver.start();
    stop = started.close;
    sandbox = await started.create(`run_computer_actions_${driver.name}`);
    site = await serveInSandbox(sandbox, PAGES, signal());
    expect(await act({ action: 'navigate', url: `${site.origin}/desk` })).toMatchObject({ ok: true });
  }, 120_000);

  afterAll(async () => {
    await stop?.();
  });

  describe.skipIf(!driver.available)('for screenshots and coordinates', () => {
    it('scales a screenshot of the viewport to a smaller size in its proportions, and refuses other proportions', async () => {
      const full = await act({ action: 'screenshot' });
      expect(pngSize(full.screenshot!)).toEqual({ width: 1280, height: 800 });
      const scaled = await act({ action: 'screenshot', size: { width: 1024, height: 640 } });
      expect(scaled).toMatchObject({ ok: true, text: 'screenshot of the viewport (1280x800 CSS pixels), scaled to 1024x640 pixels' });
      expect(pngSize(scaled.screenshot!)).toEqual({ width: 1024, height: 640 });
      expect(pngSize((await act({ action: 'screenshot', size: { width: 800, height: 500 } })).screenshot!)).toEqual({ width: 800, height: 500 });
      const stretched = await act({ action: 'screenshot', size: { width: 1000, height: 800 } });
      expect(stretched).toMatchObject({ ok: false, text: 'a screenshot is the viewport (1280x800) or smaller in its proportions, not 1000x800', screenshot: null });
    });

    it('types into whatever has the focus, in the page and in a frame, and says when nothing has it', async () => {
      expect((await act({ action: 'type_text', text: 'lost' })).text).toBe('typed, but nothing on the page had the focus: the keys went to the page itself (click the field first)');
      await act({ action: 'click', x: 150, y: 115 });
      expect(await act({ action: 'type_text', text: 'Ada Lovelace\t' })).toMatchObject({ ok: true, text: 'typed into <input#name> "Name"' });
      await logged('name Ada Lovelace');
      await act({ action: 'click', x: 150, y: 415 });
      expect((await act({ action: 'type_text', text: 'inside\t' })).text).toBe('typed into <input> "Framed" in a frame');
      await logged('framed inside');
    });

    it('types a secret the model never sees into the focused field, which shows discs', async () => {
      await act({ action: 'click', x: 150, y: 175 });
      const typed = await act({ action: 'type_text', text: '{{secret:site}}\t', secrets: { site: SECRET } });
      expect(typed).toMatchObject({ ok: true, text: 'typed into <input#secret> "Secret"' });
      expect(JSON.stringify(typed)).not.toContain(SECRET);
      await logged(`secret ${SECRET.length} disc`);
    });

    it('presses and releases the mouse button apart, so a move between them drags', async () => {
      expect((await act({ action: 'mouse_down', at: { x: 650, y: 150 } })).text).toBe('pressed the left mouse button at 650,150 (on <canvas>)');
      await act({ action: 'hover', x: 700, y: 200 });
      expect((await act({ action: 'mouse_up', at: { x: 750, y: 250 } })).text).toBe('released the left mouse button at 750,250 (on <canvas>)');
      const log = await logged('up 150 150 shift false');
      expect(log).toContain('down 50 50');
    });

    it('drags through points holding a key, clicks three times, and holds a key down', async () => {
      const dragged = await act({ action: 'drag', x: 620, y: 120, via: [{ x: 700, y: 300 }], to: { x: 880, y: 380 }, modifiers: ['Shift'] });
      expect(dragged.text).toBe('dragged 620,120 to 880,380 through 700,300 holding Shift');
      await logged('up 280 280 shift true');
      expect((await act({ action: 'click', x: 150, y: 235, clickCount: 3 })).text).toBe('triple-clicked at 150,235 (on <button> "Triple")');
      await logged('triple');
      expect((await act({ action: 'press', key: 'F8', holdSeconds: 0.3 })).text).toBe('pressed F8 (held 0.3 s)');
      await logged('held F8');
    });
  });
});
