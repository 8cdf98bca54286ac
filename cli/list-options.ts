import { Option, type Command } from 'commander';
import type { ListPage, PagePromise } from './api.js';
import type { CliContext } from './context.js';
import { integerFlag } from './flag-parsers.js';
import type { Column } from './output.js';

export interface ListOptions {
  limit?: number;
  cursor?: string;
  all: boolean;
}

export function addListOptions(cmd: Command): Command {
  return cmd
    .addOption(new Option('--limit <n>', 'items per page, 1 to 200 (default 50)').argParser(integerFlag(1, 200)))
    .option('--cursor <id>', 'start after this item (the next_cursor of a previous page)')
    .addOption(new Option('--all', 'follow next_cursor until every item is listed').conflicts('cursor'));
}

export function listOptionsOf(flags: { limit?: number; cursor?: string; all?: boolean }): ListOptions {
  return { ...(flags.limit === undefined ? {} : { limit: flags.limit }), ...(flags.cursor === undefined ? {} : { cursor: flags.cursor }), all: flags.all === true };
}

/** What a list is asked for: a page size, and where to start. */
export interface ListQuery {
  limit?: number;
  cursor?: string;
}

/** One page as asked, or with `--all` every page (of 200 unless --limit says) merged into one list answer. */
export async function fetchList<T>(options: ListOptions, list: (query: ListQuery) => PagePromise<T>): Promise<ListPage<T>> {
  if (options.all) return { object: 'list', data: await list({ limit: options.limit ?? 200 }).toArray(), has_more: false, next_cursor: null };
  const page = await list({ ...(options.limit === undefined ? {} : { limit: options.limit }), ...(options.cursor === undefined ? {} : { cursor: options.cursor }) });
  return { object: 'list', data: page.data, has_more: page.has_more, next_cursor: page.next_cursor };
}

/** The list as JSON, or as a table with a hint on stderr when more pages exist. */
export function printList<T>(ctx: CliContext, page: ListPage<T>, columns: readonly Column<T>[], empty: string): void {
  ctx.out.result(page, () => {
    ctx.out.table(page.data, columns, empty);
    if (page.has_more && page.next_cursor) ctx.out.note(`more: --cursor ${page.next_cursor} (or --all)`);
  });
}
