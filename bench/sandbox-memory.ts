/**
 * What one docker sandbox holds in memory, as `docker stats` shows it (the cgroup's usage less its inactive file
 * cache), for sizing a sandbox host (docs/scale-out.md, "Sizing a host"):
 *   node --import tsx bench/sandbox-memory.ts [samples=5] [image=errand-sandbox:latest]
 * It reads a pooled container without its browser, a pooled container with Chromium started (its blank page open,
 * what `sandbox.warm_pool_browser` does), and the same sandbox once a run has a page open: a shop-like page made here
 * with 400 product cards of text, inline SVG and CSS, and a script that re-renders a list on a timer, served from
 * inside the sandbox (a Python server on its own loopback, started by run_code, so that nothing leaves the machine). Each figure is the median of `samples` readings a second apart, taken once the
 * page has loaded. Needs a Docker engine, the built image and iptables (as root), like the docker driver; without an
 * engine or the image it says so ("nothing measured") and exits 0.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Docker from 'dockerode';
import { execa } from 'execa';
import { pino } from 'pino';
import { DockerDriver } from '../src/sandbox/docker/docker-driver.js';
import type { DockerSandbox } from '../src/sandbox/docker/docker-sandbox.js';
import { sandboxStatus } from '../src/sandbox/docker/sandbox-status.js';

const samples = Number(process.argv[2] ?? 5);
const image = process.argv[3] ?? 'errand-sandbox:latest';
const LIMITS = { memoryMb: 2048, cpus: 1, pidsLimit: 512 };

/** A storefront's weight in DOM, styles and a little script, without any request off the page. */
function shopPage(): string {
  const card = (i: number) =>
    `<article class="card"><svg width="120" height="90"><rect width="120" height="90" fill="hsl(${(i * 37) % 360},60%,70%)"/>` +
    `<circle cx="60" cy="45" r="${20 + (i % 20)}" fill="#fff8"/></svg><h2>Product ${i}</h2>` +
    `<p>${'A sturdy, well-made item that ships in two days. '.repeat(6)}</p><p class="price">$${(i * 3.17).toFixed(2)}</p>` +
    `<button>Add to cart</button></article>`;
  const style =
    '<style>body{font:14px system-ui;margin:0;display:grid;grid-template-columns:repeat(auto-fill,minmax(220px,1fr));gap:12px;padding:12px}' +
    '.card{border:1px solid #ddd;border-radius:8px;padding:8px;box-shadow:0 1px 4px #0002}.price{font-weight:bold;color:#b12}</style>';
  const script = "<script>let n=0;setInterval(()=>{const l=document.getElementById('ticker');l.innerHTML=Array.from({length:200},(_,i)=>'<li>'+(n+i)+'</li>').join('');n++},500)</script>";
  const html = `<!doctype html><html><head><title>Shop</title>${style}</head><body><ul id="ticker"></ul>${Array.from({ length: 400 }, (_, i) => card(i)).join('')}${script}</body></html>`;
  return html;
}

/**
 * A heavy page, as a single-page app with large pictures is: 40 canvases of 1280x800 drawn once (decoded bitmaps, as
 * a gallery's images are) and a script that keeps a million small objects (its state).
 */
function heavyPage(): string {
  const script =
    "<script>window.state=Array.from({length:1e6},(_,i)=>({id:i,name:'item '+i,tags:['a','b']}));" +
    "for(let i=0;i<40;i++){const c=document.createElement('canvas');c.width=1280;c.height=800;const g=c.getContext('2d');" +
    "const r=g.createLinearGradient(0,0,1280,800);r.addColorStop(0,'hsl('+i*9+',70%,50%)');r.addColorStop(1,'#fff');g.fillStyle=r;g.fillRect(0,0,1280,800);" +
    "c.style.width='320px';document.body.appendChild(c)}document.title='Heavy'</script>";
  return `<!doctype html><html><head><title>Loading</title></head><body>${script}</body></html>`;
}

/** Serves the pages at http://127.0.0.1:8000/ inside the sandbox, for its browser; answers that address. */
async function servedInside(sandbox: DockerSandbox, pages: Record<string, string>): Promise<string> {
  const code = [
    'mkdir -p /tmp/site',
    ...Object.entries(pages).map(([name, html]) => `echo ${Buffer.from(html).toString('base64')} | base64 -d > /tmp/site/${name}`),
    'setsid python3 -m http.server 8000 --bind 127.0.0.1 --directory /tmp/site > /dev/null 2>&1 < /dev/null &',
    'for i in $(seq 50); do python3 -c "import urllib.request; urllib.request.urlopen(\'http://127.0.0.1:8000/\')" 2>/dev/null && exit 0; sleep 0.1; done; exit 1',
  ].join('\n');
  const served = await sandbox.exec({ language: 'bash', code, timeoutMs: 30_000 }, AbortSignal.timeout(60_000));
  if (served.exitCode !== 0) throw new Error(`the page server did not start: ${served.stderr}`);
  return 'http://127.0.0.1:8000/';
}

/** MiB as `docker stats` reports the container's memory use. */
async function memoryMib(containerId: string): Promise<number> {
  const { stdout } = await execa('docker', ['stats', '--no-stream', '--format', '{{.MemUsage}}', containerId]);
  const used = /^([\d.]+)\s*([KMG]i?B)/.exec(stdout.trim());
  if (used === null) throw new Error(`docker stats said ${stdout}`);
  const factor = { KiB: 1 / 1024, KB: 1 / 1024, MiB: 1, MB: 1, GiB: 1024, GB: 1024 }[used[2]!] ?? 1;
  return Number(used[1]) * factor;
}

async function median(containerId: string): Promise<{ median: number; readings: number[] }> {
  const readings: number[] = [];
  for (let i = 0; i < samples; i++) {
    readings.push(await memoryMib(containerId));
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  const sorted = [...readings].sort((a, b) => a - b);
  return { median: sorted[Math.floor(sorted.length / 2)]!, readings };
}

async function pooledSandbox(home: string, warmPoolBrowser: boolean): Promise<{ driver: DockerDriver; sandbox: DockerSandbox }> {
  const docker = new Docker();
  const driver = await DockerDriver.start({ docker, image, home, logger: pino({ level: 'warn' }), limits: LIMITS, warmPoolSize: 1, warmPoolBrowser });
  while (driver.warmCount < 1) await new Promise((resolve) => setTimeout(resolve, 100));
  const sandbox = await driver.create({ runId: `run_bench_memory_${warmPoolBrowser ? 'browser' : 'bare'}`, env: {}, signal: AbortSignal.timeout(120_000) });
  return { driver, sandbox };
}

async function main(): Promise<void> {
  const status = await sandboxStatus({ docker: new Docker(), image });
  if (!status.engine.reachable || !status.image.present) {
    console.log(`${status.engine.reachable ? `image ${image} is not built` : 'no Docker engine is reachable'}: nothing measured`);
    return;
  }
  const home = mkdtempSync(join(tmpdir(), 'errand-bench-memory-'));
  const row = (name: string, figure: { median: number; readings: number[] }) =>
    `${name.padEnd(48)} median ${figure.median.toFixed(0).padStart(5)} MiB   [${figure.readings.map((r) => r.toFixed(0)).join(', ')}]`;
  try {
    console.log(`sandbox memory as docker stats shows it, image ${image}, limit ${LIMITS.memoryMb} MiB, ${samples} readings each`);
    const bare = await pooledSandbox(home, false);
    console.log(row('pooled, no browser (warm_pool_browser false)', await median(bare.sandbox.containerId)));
    await bare.sandbox.destroy();
    await bare.driver.close();

    const warm = await pooledSandbox(home, true);
    console.log(row('pooled, Chromium idle on its blank page', await median(warm.sandbox.containerId)));
    const site = await servedInside(warm.sandbox, { 'index.html': shopPage(), 'heavy.html': heavyPage() });
    const open = async (name: string, url: string): Promise<void> => {
      const opened = await warm.sandbox.browser({ action: 'navigate', url }, AbortSignal.timeout(60_000));
      if (!opened.ok) throw new Error(`the page did not open: ${opened.text}`);
      const text = await warm.sandbox.browser({ action: 'read_text' }, AbortSignal.timeout(60_000));
      await warm.sandbox.browser({ action: 'screenshot' }, AbortSignal.timeout(60_000));
      console.log(row(`${name} (read_text: ${text.text.length} chars, a screenshot)`, await median(warm.sandbox.containerId)));
    };
    await open('a run with the shop page open', site);
    await open('a run with the heavy page open', `${site}heavy.html`);
    await warm.sandbox.destroy();
    await warm.driver.close();
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
