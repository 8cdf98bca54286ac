/**
 * A run's files (issue 23, item 2), end to end on both sandbox drivers: a scripted agent serves a page inside its own
 * sandbox whose links download a PDF and a CSV (and files with hostile names), and its code writes a file under
 * /workspace/out/. They come back in the envelope's `files` and GET /v1/runs/{id}/files with the right SHA-256,
 * downloadable by their signed links as attachments; another organisation sees none of it; and a run whose files
 * pass the limits fails with a detail that names the limit and the file, keeping none of the bytes past it.
 */
import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataPaths } from '../../src/runtime/paths.js';
import { openStore } from '../../src/store/store.js';
import { dockerAvailability } from '../fixtures/docker.js';
import { toolUse } from '../fixtures/scripted-anthropic.js';
import { createRun, startEngine, waitForRun, type EngineHarness } from '../engine/harness.js';

const docker = await dockerAvailability();

const PAGE_PORT = 8000;
/** A small but real PDF, and a CSV with a non-ASCII cell. */
const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n' +
    '3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);
const CSV = Buffer.from('city,temperature\nZürich,4\nOslo,-3\n');
const NOTE = 'written by code\n';
const LONG_NAME = `${'x'.repeat(300)}.csv`;
const BIDI_NAME = 'invoice\u202Efdp.csv';
const LIMIT_MB = 2;

const sha256 = (bytes: Buffer | string): string => createHash('sha256').update(bytes).digest('hex');

function page(links: string): string {
  return `<!doctype html><title>Reports</title><body><h1>Reports</h1>${links}</body>`;
}

/** A bash step that writes the site (each file from base64) and serves it on loopback inside the sandbox. */
function serveSite(files: Record<string, Buffer | string>, extra = ''): string {
  const writes = Object.entries(files)
    .map(([name, body]) => `echo '${Buffer.from(body).toString('base64')}' | base64 -d > 'site/${name}'`)
    .join('\n');
  return (
    `mkdir -p site\n${writes}\n${extra}\n` +
    `cd site && nohup python3 -m http.server ${PAGE_PORT} --bind 127.0.0.1 >/dev/null 2>&1 &\n` +
    `for i in $(seq 100); do (echo > /dev/tcp/127.0.0.1/${PAGE_PORT}) 2>/dev/null && echo serving && break; sleep 0.1; done`
  );
}

const DOWNLOAD_PAGE = page(
  '<a id="pdf" href="report.pdf" download>Report (PDF)</a> <a id="csv" href="data.csv" download>Data (CSV)</a> ' +
    `<a id="long" href="data.csv" download="${LONG_NAME}">long</a> <a id="bidi" href="data.csv" download="${BIDI_NAME}">bidi</a> ` +
    '<a id="up" href="data.csv" download="../../escape.csv">up</a> <a id="again" href="data.csv" download>Data again</a>',
);

/** Serve, write a file with code, click every link, look, finish. */
const downloadScript = (outDir: string) => [
  toolUse('run_code', {
    language: 'bash',
    code: serveSite(
      { 'index.html': DOWNLOAD_PAGE, 'report.pdf': PDF, 'data.csv': CSV },
      `mkdir -p '${outDir}/notes' && printf '${NOTE.replace('\n', '\\n')}' > '${outDir}/notes/summary.txt'\n` +
        // Names code can give a file: a right-to-left override, and 250 bytes (the file system's limit is 255).
        `echo spoof > "${outDir}/invoice$(printf '\\342\\200\\256')fdp.txt"\necho long > '${outDir}/${'y'.repeat(246)}.txt'`,
    ),
  }),
  toolUse('browser', { action: 'navigate', url: `http://127.0.0.1:${PAGE_PORT}/index.html` }),
  ...['#pdf', '#csv', '#long', '#bidi', '#up', '#again'].map((selector) => toolUse('browser', { action: 'click', selector })),
  toolUse('browser', { action: 'read_text' }),
  toolUse('finish', { result: { downloaded: true }, confidence: 'high' }),
];

function filesScenarios(driver: 'local' | 'docker', env: Record<string, string>, outDir: string): void {
  let h: EngineHarness;
  let key: string;
  let run: any;

  beforeAll(async () => {
    h = await startEngine({ env: { ...env, ERRAND_RUN_FILES_MAX_TOTAL_MB: String(LIMIT_MB), ERRAND_RUN_FILES_MAX_COUNT: '10' } });
    key = h.daemon.createOrgWithKey(`files-${driver}`).key;
    h.model.script(downloadScript(outDir));
    run = await waitForRun(h.daemon, await createRun(h.daemon, { prompt: 'Download the reports' }, key), undefined, 120_000, key);
  }, 180_000);

  afterAll(async () => {
    await h?.close();
  });

  it('returns the downloaded PDF and CSV and the file code wrote, with their SHA-256, in the envelope and GET /v1/runs/{id}/files', async () => {
    expect(run.status, JSON.stringify(run)).toBe('succeeded');
    const byName = new Map<string, any>(run.files.map((f: any) => [f.name, f]));
    expect(byName.get('report.pdf')).toMatchObject({ size: PDF.length, sha256: sha256(PDF), content_type: 'application/pdf' });
    expect(byName.get('data.csv')).toMatchObject({ size: CSV.length, sha256: sha256(CSV), content_type: 'text/csv' });
    expect(byName.get('notes_summary.txt')).toMatchObject({ size: NOTE.length, sha256: sha256(NOTE), content_type: 'text/plain' });
    // The second download of data.csv is kept under a name of its own.
    expect([...byName.keys()].filter((name) => name.startsWith('data') && name.endsWith('.csv')).length).toBe(2);
    const listed = await h.daemon.api('GET', `/v1/runs/${run.task_id}/files`, undefined, { key });
    expect(listed.status).toBe(200);
    expect(listed.body).toMatchObject({ object: 'list', has_more: false, next_cursor: null });
    expect(listed.body.data.map((f: any) => [f.name, f.sha256])).toEqual(run.files.map((f: any) => [f.name, f.sha256]));
  });

  it('sends the files in the run.completed webhook, whose body carries the envelope', () => {
    const store = openStore(dataPaths(h.daemon.home).database);
    try {
      const row = store.db.prepare("SELECT webhook_payload FROM events WHERE run_id = ? AND type = 'run.completed'").get(run.task_id) as { webhook_payload: string };
      expect(JSON.parse(row.webhook_payload).data.files).toEqual(run.files.map((f: any) => ({ ...f, url: expect.any(String), expires_at: expect.any(String) })));
    } finally {
      store.close();
    }
  });

  it('gives hostile names safe ones: no path, no control or bidi character, at most 200 bytes with the extension kept', () => {
    const names = JSON.stringify(run.files.map((f: any) => f.name));
    expect(run.files.length, names).toBe(9);
    for (const file of run.files) {
      expect(file.name).not.toMatch(/[/\\\u0000-\u001f\u007f\u202a-\u202e\u2066-\u2069]/);
      expect(file.name.startsWith('.')).toBe(false);
      expect(Buffer.byteLength(file.name)).toBeLessThanOrEqual(200);
    }
    const long = run.files.find((f: any) => f.name.startsWith('xxxxxxxx'));
    expect(long.name.endsWith('.csv'), names).toBe(true);
    expect(long.sha256).toBe(sha256(CSV));
    // Chromium may rename a download itself (to `download`, in the container); what code names a file is ours to clean.
    expect(run.files.map((f: any) => f.name), names).toContain('invoice_fdp.txt');
    const cut = run.files.find((f: any) => f.name.startsWith('yyyy'));
    expect(Buffer.byteLength(cut.name)).toBe(200);
    expect(cut.name).toBe(`${'y'.repeat(196)}.txt`);
    expect(run.files.some((f: any) => /escape\.csv$/.test(f.name)), names).toBe(true);
  });

  it('serves each file by its signed link, streamed as an attachment with nosniff, and refuses a tampered link', async () => {
    for (const file of run.files) {
      const url = new URL(file.url);
      expect(url.origin).toBe(h.daemon.url);
      expect(url.pathname).toMatch(new RegExp(`^/v1/runs/${run.task_id}/files/art_\\w+$`));
      expect(Date.parse(file.expires_at)).toBe(Number(url.searchParams.get('expires')) * 1000);
      const res = await fetch(file.url);
      expect(res.status).toBe(200);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="[^"]*"; filename\*=UTF-8''/);
      expect(decodeURIComponent(res.headers.get('content-disposition')!.split("filename*=UTF-8''")[1]!)).toBe(file.name);
      expect(sha256(Buffer.from(await res.arrayBuffer()))).toBe(file.sha256);
    }
    const tampered = new URL(run.files[0].url);
    tampered.searchParams.set('sig', `${tampered.searchParams.get('sig')!.slice(0, -2)}AA`);
    expect((await fetch(tampered)).status).toBe(403);
    // A file's signature opens nothing at /v1/artifacts, where it would be shown inline.
    const inline = new URL(run.files[0].url);
    inline.pathname = `/v1/artifacts/${inline.pathname.split('/').at(-1)}`;
    expect((await fetch(inline)).status).toBe(403);
  });

  it("hides a run's files from another organisation: 404, as for its run", async () => {
    const other = h.daemon.createOrgWithKey(`files-stranger-${driver}`).key;
    const res = await h.daemon.api('GET', `/v1/runs/${run.task_id}/files`, undefined, { key: other });
    expect(res.status).toBe(404);
    expect(res.body.error).toMatchObject({ type: 'not_found_error' });
  });

  it('fails a run whose download passes run_files.max_total_mb, naming the limit and the file, and keeps none of its bytes', async () => {
    const big = `head -c ${(LIMIT_MB + 1) * 1024 * 1024} /dev/zero > site/big.bin`;
    h.model.script([
      toolUse('run_code', { language: 'bash', code: serveSite({ 'index.html': page('<a id="big" href="big.bin" download>big</a>') }, big) }),
      toolUse('browser', { action: 'navigate', url: `http://127.0.0.1:${PAGE_PORT}/index.html` }),
      toolUse('browser', { action: 'click', selector: '#big' }),
      toolUse('browser', { action: 'read_text' }),
      toolUse('finish', { result: { downloaded: true }, confidence: 'high' }),
    ]);
    const failed = await waitForRun(h.daemon, await createRun(h.daemon, { prompt: 'Download the big file' }, key), undefined, 120_000, key);
    expect(failed.status, JSON.stringify(failed)).toBe('failed');
    expect(failed.failure_reason).toBe('timeout');
    expect(failed.failure_detail).toContain(`run_files.max_total_mb (${LIMIT_MB} MiB)`);
    expect(failed.failure_detail).toContain('"big.bin"');
    expect(failed.files).toEqual([]);
    expect(storedFiles(h, failed.task_id).filter((name) => name.endsWith('.file'))).toEqual([]);
  }, 150_000);

  it("keeps no file that holds one of the run's secrets, in any form the mask knows, and says which were left out", async () => {
    const secret = `tok_${driver}_8d1f0c5a2b7e4d9f`;
    expect((await h.daemon.api('POST', '/v1/connections', { name: 'svc', type: 'token', secret, env_var_name: 'SVC_TOKEN' }, { key })).status).toBe(201);
    h.model.script([
      toolUse('run_code', {
        language: 'bash',
        code:
          `printf 'token=%s\\n' "$SVC_TOKEN" > '${outDir}/config.env'\n` +
          // Base64 of the token inside a binary file, cut across where a chunk of the copy could end.
          `{ head -c 70000 /dev/zero; printf %s "$SVC_TOKEN" | base64 -w0; } > '${outDir}/blob.bin'\n` +
          `echo 'no secret here' > '${outDir}/clean.txt'`,
      }),
      toolUse('finish', { result: { written: 3 }, confidence: 'high' }),
    ]);
    const done = await waitForRun(h.daemon, await createRun(h.daemon, { prompt: 'Write the files', connections: ['svc'] }, key), undefined, 120_000, key);
    expect(done.status, JSON.stringify(done)).toBe('succeeded');
    expect(done.files.map((f: any) => f.name)).toEqual(['clean.txt']);
    expect(done.warnings).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^the file "blob\.bin" held \[secret:svc\] and was not kept/),
        expect.stringMatching(/^the file "config\.env" held \[secret:svc\] and was not kept/),
      ]),
    );
    expect(JSON.stringify(done)).not.toContain(secret);
    expect(storedFiles(h, done.task_id)).toHaveLength(1);
  }, 150_000);

  it('fails a run that writes more files than run_files.max_count, keeping those within it', async () => {
    h.model.script([
      toolUse('run_code', { language: 'bash', code: `for i in $(seq 1 12); do echo $i > '${outDir}/part-'$(printf %02d $i)'.txt'; done` }),
      toolUse('finish', { result: { written: 12 }, confidence: 'high' }),
    ]);
    const failed = await waitForRun(h.daemon, await createRun(h.daemon, { prompt: 'Write ten files' }, key), undefined, 120_000, key);
    expect(failed.status, JSON.stringify(failed)).toBe('failed');
    expect(failed.failure_reason).toBe('timeout');
    expect(failed.failure_detail).toContain('run_files.max_count (10)');
    expect(failed.failure_detail).toContain('"part-11.txt", "part-12.txt" not kept');
    expect(failed.files.map((f: any) => f.name)).toEqual(['01', '02', '03', '04', '05', '06', '07', '08', '09', '10'].map((n) => `part-${n}.txt`));
  }, 150_000);
}

function storedFiles(h: EngineHarness, runId: string): string[] {
  return readdirSync(join(h.daemon.home, 'artifacts')).flatMap((org) => {
    try {
      return readdirSync(join(h.daemon.home, 'artifacts', org, runId));
    } catch {
      return [];
    }
  });
}

describe('run files on the local driver', () => {
  // Code runs in the workspace: `out` there is the local driver's /workspace/out.
  filesScenarios('local', { ERRAND_SANDBOX_DRIVER: 'local' }, 'out');
});

describe.skipIf(!docker.available)('run files on the docker driver', () => {
  filesScenarios('docker', { ERRAND_SANDBOX_DRIVER: 'docker', ERRAND_SANDBOX_IMAGE: docker.image, ERRAND_SANDBOX_WARM_POOL_SIZE: '1' }, '/workspace/out');
});
