/**
 * Lists: `await client.runs.list()` is the first page (`data`, `has_more`, `next_cursor`, `getNextPage()`), and
 * `for await (const run of client.runs.list())` walks every item of every page, asking for the next page as the
 * walk reaches it. A `cursor` given to a list (a `next_cursor` kept from an earlier page) starts it after that item.
 */

export interface ListEnvelope<T> {
  object: 'list';
  data: T[];
  has_more: boolean;
  next_cursor: string | null;
}

type Fetcher<T> = (cursor: string | undefined) => Promise<ListEnvelope<T>>;

/** One page of a list, with the way to the next. */
export class Page<T> implements AsyncIterable<T> {
  readonly object = 'list' as const;
  readonly data: T[];
  readonly has_more: boolean;
  readonly next_cursor: string | null;
  readonly #fetch: Fetcher<T>;

  constructor(envelope: ListEnvelope<T>, fetch: Fetcher<T>) {
    this.data = envelope.data;
    this.has_more = envelope.has_more;
    this.next_cursor = envelope.next_cursor;
    this.#fetch = fetch;
  }

  hasNextPage(): boolean {
    return this.has_more && this.next_cursor !== null;
  }

  async getNextPage(): Promise<Page<T> | null> {
    if (!this.hasNextPage()) return null;
    return new Page(await this.#fetch(this.next_cursor!), this.#fetch);
  }

  /** This page and every later one. */
  async *iterPages(): AsyncGenerator<Page<T>> {
    for (let page: Page<T> | null = this; page; page = await page.getNextPage()) yield page;
  }

  /** Every item from this page on. */
  async *[Symbol.asyncIterator](): AsyncGenerator<T> {
    for await (const page of this.iterPages()) yield* page.data;
  }
}

/** What a list method returns: a promise of the first page that is also an async iterable of every item. */
export class PagePromise<T> implements Promise<Page<T>>, AsyncIterable<T> {
  readonly [Symbol.toStringTag] = 'PagePromise';
  readonly #fetch: Fetcher<T>;
  #first: Promise<Page<T>> | null = null;

  constructor(fetch: Fetcher<T>) {
    this.#fetch = fetch;
  }

  #page(): Promise<Page<T>> {
    this.#first ??= this.#fetch(undefined).then((envelope) => new Page(envelope, this.#fetch));
    return this.#first;
  }

  then<A = Page<T>, B = never>(onfulfilled?: ((page: Page<T>) => A | PromiseLike<A>) | null, onrejected?: ((reason: unknown) => B | PromiseLike<B>) | null): Promise<A | B> {
    return this.#page().then(onfulfilled, onrejected);
  }

  catch<B = never>(onrejected?: ((reason: unknown) => B | PromiseLike<B>) | null): Promise<Page<T> | B> {
    return this.#page().catch(onrejected);
  }

  finally(onfinally?: (() => void) | null): Promise<Page<T>> {
    return this.#page().finally(onfinally);
  }

  /** Every page, from the first. */
  async *iterPages(): AsyncGenerator<Page<T>> {
    yield* (await this.#page()).iterPages();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T> {
    yield* await this.#page();
  }

  /** Every item of every page, in one array (mind the size of what you list). */
  async toArray(): Promise<T[]> {
    const items: T[] = [];
    for await (const item of this) items.push(item);
    return items;
  }
}
