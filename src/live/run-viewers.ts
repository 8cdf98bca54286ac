import { TooManyViewersError } from './live-errors.js';

/** Frame streams one run's live view may have open at once, whoever opens them. */
export const VIEWERS_PER_RUN = 4;
/** Of those, what its live links may have together: one place is kept for the run's API key. */
export const LINK_VIEWERS_PER_RUN = VIEWERS_PER_RUN - 1;
/** Frame streams one live link may have open (a page, and the same page opened again or in a second tab). */
export const VIEWERS_PER_LINK = 2;

/** One open frame stream: whose (a live link's id, or null for an API key's), and the way to end it. */
export interface Viewer {
  link: string | null;
  stop: AbortController;
}

/**
 * The frame streams open on one run, and who may open another (docs/api.md, Live view): at most `VIEWERS_PER_RUN`,
 * of which the live links together hold at most `LINK_VIEWERS_PER_RUN` and each link `VIEWERS_PER_LINK`. A link
 * opening past its share, or past the links' share while it holds a stream, ends its own oldest stream instead of
 * being refused: its holder opening the page again (a reload, a connection the daemon has not seen break yet) always
 * works, never at another holder's expense, and no holder takes every place.
 */
export class RunViewers {
  /** In the order they joined: the first of a link's is its oldest. */
  private readonly open = new Set<Viewer>();

  get size(): number {
    return this.open.size;
  }

  /** A new viewer for `link`, after making room for it; throws TooManyViewersError when there is none to make. */
  join(link: string | null): Viewer {
    if (link === null) {
      if (this.open.size >= VIEWERS_PER_RUN) throw new TooManyViewersError(`${VIEWERS_PER_RUN} times`);
    } else {
      const links = [...this.open].filter((v) => v.link !== null);
      const own = links.filter((v) => v.link === link);
      const full = links.length >= LINK_VIEWERS_PER_RUN || this.open.size >= VIEWERS_PER_RUN;
      if (own.length >= VIEWERS_PER_LINK || (full && own.length > 0)) this.end(own[0]!);
      else if (full) throw new TooManyViewersError(`${links.length} times through its live links (one place is kept for its API key)`);
    }
    const viewer: Viewer = { link, stop: new AbortController() };
    this.open.add(viewer);
    return viewer;
  }

  /** The viewer went (its stream ended); a no-op for one that was ended already. */
  leave(viewer: Viewer): void {
    this.open.delete(viewer);
  }

  /** Ends the streams opened with a live link (their links were revoked). */
  endLinks(): void {
    for (const viewer of this.open) if (viewer.link !== null) this.end(viewer);
  }

  private end(viewer: Viewer): void {
    this.open.delete(viewer);
    viewer.stop.abort();
  }
}
