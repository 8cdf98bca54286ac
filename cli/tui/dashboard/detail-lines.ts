import type { Detail } from './dashboard-data.js';
import type { DetailLine } from './detail-view.js';
import { mailDetailLines } from './mail-detail.js';
import { runDetailLines } from './run-detail.js';

/** The lines of whatever the detail view shows: a run, or a message. */
export function detailLinesOf(detail: Detail, cliName: string): DetailLine[] {
  switch (detail.kind) {
    case 'run':
      return runDetailLines(detail, cliName);
    case 'mail':
      return mailDetailLines(detail, cliName);
    default: {
      const unknown: never = detail;
      throw new Error(`unknown detail ${JSON.stringify(unknown)}`);
    }
  }
}
