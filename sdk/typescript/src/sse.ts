/** Server-sent events as the HTML standard reads them: fields, comments, `retry`, and a message per blank line. */

export interface SseMessage {
  /** The `id` field, or null when the message had none. */
  id: string | null;
  /** The `event` field, `message` when absent. */
  event: string;
  data: string;
  /** A `retry` field's reconnection delay, when the message set one. */
  retry: number | null;
}

/** The messages of an event-stream body; stops reading (and releases the body) when the caller stops iterating. */
export async function* readSse(body: ReadableStream<Uint8Array>): AsyncGenerator<SseMessage> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let id: string | null = null;
  let event = '';
  let data: string[] = [];
  let retry: number | null = null;
  let sawData = false;
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      for (;;) {
        const end = buffer.search(/\r\n|\r|\n/);
        // A lone \r at the end may be the first half of \r\n: wait for more.
        if (end === -1 || (end === buffer.length - 1 && buffer[end] === '\r')) break;
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + (buffer.startsWith('\r\n', end) ? 2 : 1));
        if (line === '') {
          if (sawData || retry !== null) yield { id, event: event || 'message', data: data.join('\n'), retry };
          id = null;
          event = '';
          data = [];
          retry = null;
          sawData = false;
          continue;
        }
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon === -1 ? line : line.slice(0, colon);
        const raw = colon === -1 ? '' : line.slice(colon + 1);
        const value_ = raw.startsWith(' ') ? raw.slice(1) : raw;
        if (field === 'data') {
          data.push(value_);
          sawData = true;
        } else if (field === 'event') event = value_;
        else if (field === 'id' && !value_.includes('\0')) id = value_;
        else if (field === 'retry' && /^\d+$/.test(value_)) retry = Number(value_);
      }
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}
