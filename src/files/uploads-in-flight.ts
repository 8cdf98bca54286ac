import { RateLimitError } from '../errors.js';
import { HeldByPrincipal, type Holder } from '../keys/held-by-principal.js';

/** Retry-After of a refused upload: one in flight is a moment from ending, or from being cut for its pace. */
const RETRY_AFTER_S = 5;

/**
 * The uploads (POST /v1/files) each API key has in flight, so that one key cannot hold many of the daemon's
 * connections and file writes open at once with slow uploads (`files.max_uploads_per_key`): one more is
 * `429 too_many_uploads`, before a byte of its body is read.
 */
export class UploadsInFlight {
  private readonly held = new HeldByPrincipal<symbol>();

  constructor(private readonly maxPerKey: () => number) {}

  /** Counts an upload of the caller; answers the function that ends it (a second call does nothing). */
  begin(caller: Holder): () => void {
    const open = this.held.ofKey(caller.keyId).size;
    const max = this.maxPerKey();
    if (open >= max) {
      throw new RateLimitError(
        'too_many_uploads',
        `This API key has ${open} uploads in flight, the most files.max_uploads_per_key allows (${max}); retry once one has finished`,
        RETRY_AFTER_S,
      );
    }
    const upload = Symbol('upload');
    this.held.add(caller, upload);
    return () => void this.held.delete(caller, upload);
  }
}
