import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { MailTransport, RecipientOutcome, SmtpEnvelope } from './mail-transport.js';

/**
 * `mail.transport=capture`, for development: every message is written to `<dir>/<email id>.eml` instead of
 * being sent, and every recipient counts as delivered. `errand email list|show` reads them back.
 */
export class CaptureTransport implements MailTransport {
  constructor(private readonly dir: string) {}

  async send(emailId: string, envelope: SmtpEnvelope, raw: Buffer): Promise<RecipientOutcome[]> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    const file = join(this.dir, `${emailId}.eml`);
    // Whole or not at all: a reader never sees half a message, and a repeat after a crash rewrites the same file.
    const temp = `${file}.${process.pid}.tmp`;
    const envelopeLines = `X-Envelope-From: <${envelope.from}>\r\nX-Envelope-To: ${envelope.to.map((a) => `<${a}>`).join(', ')}\r\n`;
    await writeFile(temp, Buffer.concat([Buffer.from(envelopeLines), raw]), { mode: 0o600 });
    await rename(temp, file);
    return envelope.to.map((address) => ({ address, outcome: 'delivered', detail: `captured in ${file}` }));
  }

  async close(): Promise<void> {}
}
