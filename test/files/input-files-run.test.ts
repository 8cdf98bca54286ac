/**
 * A run's input files end to end (issue 23, item 3), on both sandbox drivers: the daemon places them in the workspace's
 * `in/` (/workspace/in) before the agent's first step, the agent is told of them, code reads them (and, in docker, cannot change them), and
 * the browser's upload action sets one on a page's <input type=file>, whose site receives its exact bytes. An upload
 * naming anything but an input file is refused.
 */
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dockerAvailability } from '../fixtures/docker.js';
import { toolResults, toolUse, type AnthropicRequest, type AnthropicTurn } from '../fixtures/scripted-anthropic.js';
import { createRun, servePages, startEngine, stepsOf, waitForRun, type EngineHarness } from '../engine/harness.js';

const docker = await dockerAvailability();

const FORM_PAGE = `<!doctype html><title>Upload a report</title>
<form method="post" enctype="multipart/form-data" action="/upload">
  <input type="file" id="doc" name="doc"><button id="send" type="submit">Send</button>
</form>`;

/** The site's answer to an upload: what it received, so that the run (and the test) can compare. */
const receivedLine = (name: string, bytes: Buffer): string => `received ${name} ${bytes.length} bytes sha256 ${createHash('sha256').update(bytes).digest('hex')}`;

/** The same site, in Python, for the docker sandbox (a sandbox cannot reach the host's ports): it parses the form with the email package. */
const PYTHON_SITE = `
import hashlib, http.server
from email.parser import BytesParser
from email.policy import default
PAGE = open('/tmp/site/form.html', 'rb').read()
class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200); self.send_header('content-type', 'text/html'); self.end_headers(); self.wfile.write(PAGE)
    def do_POST(self):
        body = self.rfile.read(int(self.headers['content-length']))
        msg = BytesParser(policy=default).parsebytes(b'content-type: ' + self.headers['content-type'].encode() + b'\\r\\n\\r\\n' + body)
        part = next(p for p in msg.iter_parts() if p.get_filename())
        data = part.get_payload(decode=True)
        line = 'received %s %d bytes sha256 %s' % (part.get_filename(), len(data), hashlib.sha256(data).hexdigest())
        self.send_response(200); self.send_header('content-type', 'text/html'); self.end_headers()
        self.wfile.write(('<!doctype html><title>Received</title><p id="got">%s</p>' % line).encode())
http.server.HTTPServer(('127.0.0.1', 8000), Handler).serve_forever()
`;

const SERVE_IN_SANDBOX =
  `mkdir -p /tmp/site && cat > /tmp/site/form.html <<'EOF'\n${FORM_PAGE}\nEOF\n` +
  `cat > /tmp/site/site.py <<'EOF'\n${PYTHON_SITE}\nEOF\n` +
  `nohup python3 /tmp/site/site.py >/dev/null 2>&1 &\n` +
  `for i in $(seq 100); do (echo > /dev/tcp/127.0.0.1/8000) 2>/dev/null && echo serving && break; sleep 0.1; done`;

/** Reads the input files: what code sees of /workspace/in. */
const INSPECT = 'cd in && sha256sum report.bin && cat notes.txt && echo && stat -c "%a %n" . report.bin notes.txt';

/**
 * Tries to change them, after the upload. Only where task code runs as a user of its own (docker): the local driver's
 * code runs as the daemon's user, which may be root and pass any mode.
 */
const TRY_TO_CHANGE =
  'cd in && (echo overwritten > report.bin) 2>/dev/null && echo wrote || echo write-refused\n' +
  '(touch added.txt) 2>/dev/null && echo added || echo add-refused\n' +
  '(rm -f notes.txt) 2>/dev/null && test ! -e notes.txt && echo removed || echo remove-refused';

interface Scenario {
  h: EngineHarness;
  /** The page's URL, as the sandbox's browser reaches it. */
  siteUrl: string;
  /** Code that starts the site inside the sandbox first, when the host's cannot be reached. */
  serve: string | null;
  /** Whether code then tries to change the input files. */
  tryToChange: boolean;
}

/** Uploads the two input files and runs the scripted agent over them; answers what it saw. */
async function runWithInputFiles(s: Scenario) {
  const report = randomBytes(200_000);
  const notes = 'Quarterly notes: all good.';
  const up = async (name: string, body: Buffer) => {
    const res = await fetch(`${s.h.daemon.url}/v1/files?name=${encodeURIComponent(name)}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${s.h.daemon.key}`, 'content-type': 'application/octet-stream' },
      body: new Uint8Array(body),
    });
    expect(res.status).toBe(201);
    return ((await res.json()) as { id: string }).id;
  };
  const files = [await up('report.bin', report), await up('notes.txt', Buffer.from(notes))];

  const requests: AnthropicRequest[] = [];
  const seen =
    (turn: AnthropicTurn) =>
    (request: AnthropicRequest): AnthropicTurn => {
      requests.push(request);
      return turn;
    };
  const turns: AnthropicTurn[] = [
    ...(s.serve === null ? [] : [toolUse('run_code', { language: 'bash', code: s.serve })]),
    seen(toolUse('run_code', { language: 'bash', code: INSPECT })),
    seen(toolUse('browser', { action: 'navigate', url: s.siteUrl })),
    seen(toolUse('browser', { action: 'upload', selector: '#doc', files: ['../../etc/passwd'] })),
    seen(toolUse('browser', { action: 'upload', selector: '#doc', files: ['report.bin'] })),
    seen(toolUse('browser', { action: 'click', selector: '#send' })),
    seen(toolUse('browser', { action: 'read_text' })),
    ...(s.tryToChange ? [seen(toolUse('run_code', { language: 'bash', code: TRY_TO_CHANGE }))] : []),
    seen(toolUse('finish', { result: { uploaded: true }, confidence: 'high' })),
  ];
  s.h.model.script(turns);
  const runId = await createRun(s.h.daemon, { prompt: 'Upload the report to the site', files });
  const run = await waitForRun(s.h.daemon, runId, undefined, 90_000);
  const results = requests.slice(1).map((r) => toolResults(r)[0]!);
  return { run, runId, report, notes, system: JSON.stringify(requests[0]!.body.system), results };
}

describe('input files on the local driver', () => {
  let h: EngineHarness;
  let site: Awaited<ReturnType<typeof servePages>>;
  const received: Buffer[] = [];

  beforeAll(async () => {
    h = await startEngine();
    site = await servePages(async (req, res) => {
      if (req.method === 'GET') return res.writeHead(200, { 'content-type': 'text/html' }).end(FORM_PAGE);
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const form = await new Request('http://site/upload', { method: 'POST', headers: { 'content-type': req.headers['content-type']! }, body: Buffer.concat(chunks) }).formData();
      const file = form.get('doc') as File;
      const bytes = Buffer.from(await file.arrayBuffer());
      received.push(bytes);
      res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><title>Received</title><p>${receivedLine(file.name, bytes)}</p>`);
    });
  });

  afterAll(async () => {
    await site?.close();
    await h?.close();
  });

  it('places the files before the first step, tells the agent, lets code read them and the browser upload one whose exact bytes the site receives', async () => {
    const { run, runId, report, notes, system, results } = await runWithInputFiles({ h, siteUrl: `${site.url}/form`, serve: null, tryToChange: false });
    expect(run).toMatchObject({ status: 'succeeded', result: { uploaded: true } });

    expect(system).toContain('in/report.bin (200000 bytes, application/octet-stream)');
    expect(system).toContain('in/notes.txt');
    const [inspected, , refused, uploaded, , read] = results;
    expect(inspected!.text).toContain(`${createHash('sha256').update(report).digest('hex')}  report.bin`);
    expect(inspected!.text).toContain(notes);
    // The local driver's best: the modes (task code runs as the daemon's user, which may be root and pass them).
    expect(inspected!.text).toMatch(/555 \.\n444 report\.bin\n444 notes\.txt/);
    expect(refused).toMatchObject({ isError: true });
    expect(refused!.text).toContain('upload takes only the run\'s input files');
    expect(uploaded).toMatchObject({ isError: false });
    expect(read!.text).toContain(receivedLine('report.bin', report));
    expect(received).toHaveLength(1);
    expect(received[0]!.equals(report)).toBe(true);
    const names = (await stepsOf(h.daemon, runId)).map((step) => step.name);
    expect(names).toContain('browser.upload');
  });

  it('fails a run whose input file vanished from the data directory, naming it', async () => {
    const res = await fetch(`${h.daemon.url}/v1/files?name=gone.txt`, { method: 'POST', headers: { authorization: `Bearer ${h.daemon.key}`, 'content-type': 'text/plain' }, body: 'x' });
    const file = (await res.json()) as { id: string };
    const { rmSync } = await import('node:fs');
    rmSync(`${h.daemon.home}/files/${h.daemon.orgId}/${file.id}`);
    const runId = await createRun(h.daemon, { prompt: 'Read it', files: [file.id] });
    const run = await waitForRun(h.daemon, runId);
    expect(run).toMatchObject({ status: 'failed', failure_reason: 'not_found' });
    expect(run.failure_detail).toContain(`${file.id} (gone.txt) is no longer stored`);
  });
});

describe.skipIf(!docker.available)('input files on the docker driver', () => {
  let h: EngineHarness;

  beforeAll(async () => {
    h = await startEngine({ env: { ERRAND_SANDBOX_DRIVER: 'docker', ERRAND_SANDBOX_IMAGE: docker.image, ERRAND_SANDBOX_WARM_POOL_SIZE: '1' } });
  });

  afterAll(async () => {
    await h?.daemon.stop();
    await h?.close();
  });

  it('places the files read-only for task code, which reads but cannot change them, and the browser uploads one the site receives whole', async () => {
    const { run, report, notes, system, results } = await runWithInputFiles({ h, siteUrl: 'http://127.0.0.1:8000/form', serve: SERVE_IN_SANDBOX, tryToChange: true });
    expect(run).toMatchObject({ status: 'succeeded', result: { uploaded: true } });

    expect(system).toContain('in/report.bin (200000 bytes, application/octet-stream)');
    const [inspected, , refused, uploaded, , read, changed] = results;
    expect(inspected!.text).toContain(`${createHash('sha256').update(report).digest('hex')}  report.bin`);
    expect(inspected!.text).toContain(notes);
    expect(inspected!.text).toMatch(/555 \.\n444 report\.bin\n444 notes\.txt/);
    expect(changed!.text).toContain('write-refused');
    expect(changed!.text).toContain('add-refused');
    expect(changed!.text).toContain('remove-refused');
    expect(refused).toMatchObject({ isError: true });
    expect(uploaded).toMatchObject({ isError: false });
    expect(read!.text).toContain(receivedLine('report.bin', report));
  });
});
