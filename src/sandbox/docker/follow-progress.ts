import type Docker from 'dockerode';
import type { LogLine } from './run-logged.js';

interface ProgressEvent {
  stream?: string;
  status?: string;
  error?: string;
  errorDetail?: { message?: string };
}

/** Waits for a build or import stream to end, passing its text to `onLog`; rejects on the first error event. */
export function followProgress(docker: Docker, stream: NodeJS.ReadableStream, onLog: LogLine): Promise<void> {
  return new Promise((resolve, reject) => {
    let failure: string | null = null;
    docker.modem.followProgress(
      stream,
      (error: Error | null) => {
        if (error) reject(error);
        else if (failure !== null) reject(new Error(failure));
        else resolve();
      },
      (event: ProgressEvent) => {
        if (event.error !== undefined) failure ??= event.errorDetail?.message ?? event.error;
        const text = event.stream ?? event.status ?? event.error;
        if (text === undefined) return;
        for (const line of text.split('\n')) if (line.trim() !== '') onLog(line.trimEnd());
      },
    );
  });
}
