import type { RequestOptions } from '../core.js';
import { download, type Download } from './download.js';
import { Resource } from './resource.js';

/** A run's evidence files (screenshots, recordings, traces), by the signed links its envelope holds. */
export class Artifacts extends Resource {
  /** The file behind a signed artifact link (`evidence.screenshot_url`, `recording_url`, `trace_url`). */
  download(url: string, options?: RequestOptions): Promise<Download> {
    return download(this.http, url, '/v1/artifacts/', options);
  }
}
