/**
 * The zip reader and writer playwright-core bundles (yauzl and yazl), which the sandbox supervisor uses on a run's
 * trace: the sandbox image holds playwright-core and nothing else from npm. Only what the supervisor calls.
 */
declare module 'playwright-core/lib/utilsBundle' {
  import type { Readable } from 'node:stream';

  interface ZipEntry {
    fileName: string;
  }
  interface ZipReader {
    readEntry(): void;
    openReadStream(entry: ZipEntry, callback: (error: Error | null, stream: Readable) => void): void;
    close(): void;
    on(event: 'entry', listener: (entry: ZipEntry) => void): this;
    on(event: 'end', listener: () => void): this;
    on(event: 'error', listener: (error: Error) => void): this;
  }
  interface ZipWriter {
    outputStream: Readable;
    addBuffer(buffer: Buffer, name: string, options?: { compress?: boolean }): void;
    end(): void;
  }
  export const yauzl: {
    open(path: string, options: { lazyEntries: true }, callback: (error: Error | null, zip: ZipReader) => void): void;
  };
  export const yazl: { ZipFile: new () => ZipWriter };
}
