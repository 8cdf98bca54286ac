import type { SecretMask } from '../connections/secret-mask.js';

/** A frame event is a JPEG of at most a few hundred kB in base64: one far larger is not the supervisor's. */
const MAX_EVENT_CHARS = 16 * 1024 * 1024;

/**
 * The supervisor's frame stream (server-sent events of `LiveFrame`, protocol.ts) with every text member of every
 * frame (its `url`, and any member but the JPEG) masked with the run's mask: its secrets in every form, as its steps
 * are (docs/api.md, Live view). The TOTP codes typed are masked before, by the supervisor, which alone knows them.
 * Every frame goes through here on its way to a viewer, and only the events the live view knows pass: `frame`,
 * `tabs` (each tab's title and URL masked too), `waiting`, and comments (keep-alives); anything else is dropped.
 */
export function frameMasking(mask: SecretMask): TransformStream<Uint8Array, Uint8Array> {
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let buffered = '';
  return new TransformStream({
    transform(chunk, controller) {
      // Searched from the end of the chunk before: a frame comes in many chunks, and is not searched again each time.
      const from = Math.max(0, buffered.length - 1);
      buffered += decoder.decode(chunk, { stream: true });
      let end = buffered.indexOf('\n\n', from);
      let start = 0;
      while (end !== -1) {
        const event = maskedEvent(buffered.slice(start, end), mask);
        if (event !== null) controller.enqueue(encoder.encode(event));
        start = end + 2;
        end = buffered.indexOf('\n\n', start);
      }
      buffered = buffered.slice(start);
      if (buffered.length > MAX_EVENT_CHARS) controller.error(new Error(`the sandbox sent a live event of more than ${MAX_EVENT_CHARS} characters`));
    },
  });
}

/** One event, masked and framed again; null for one the live view does not know. */
function maskedEvent(event: string, mask: SecretMask): string | null {
  if (event.startsWith(':')) return ':\n\n';
  let name = 'message';
  const data: string[] = [];
  for (const line of event.split('\n')) {
    if (line.startsWith('event: ')) name = line.slice('event: '.length);
    else if (line.startsWith('data: ')) data.push(line.slice('data: '.length));
  }
  if (name === 'waiting') return 'event: waiting\ndata: {}\n\n';
  if (name === 'tabs') return maskedTabs(data.join('\n'), mask);
  if (name !== 'frame') return null;
  let frame: unknown;
  try {
    frame = JSON.parse(data.join('\n'));
  } catch {
    return null;
  }
  if (frame === null || typeof frame !== 'object' || Array.isArray(frame)) return null;
  const { jpeg, ...text } = frame as Record<string, unknown>;
  const masked = mask.value(text);
  // Most frames hold no secret: they go on as they came, without writing their JPEG out again.
  if (JSON.stringify(masked) === JSON.stringify(text) && data.length === 1) return `event: frame\ndata: ${data[0]}\n\n`;
  return `event: frame\ndata: ${JSON.stringify({ jpeg, ...masked })}\n\n`;
}

/** The open tabs (`LiveTabs`), each title and URL masked; null for a body that is not a list of tabs. */
function maskedTabs(data: string, mask: SecretMask): string | null {
  let body: unknown;
  try {
    body = JSON.parse(data);
  } catch {
    return null;
  }
  const tabs = (body as { tabs?: unknown } | null)?.tabs;
  if (!Array.isArray(tabs)) return null;
  const masked = tabs.map((tab: Record<string, unknown>) => ({ index: tab.index, current: tab.current, url: typeof tab.url === 'string' ? mask.text(tab.url) : null, title: typeof tab.title === 'string' ? mask.text(tab.title) : null }));
  return `event: tabs\ndata: ${JSON.stringify({ tabs: masked })}\n\n`;
}
