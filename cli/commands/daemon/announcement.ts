import { parseFirstStartNotice } from '../../../src/runtime/first-start-notice.js';

/** What errandd announces on stdout once it listens: its address and, on a first start, the new organisation and key. */
export interface Announcement {
  url: string;
  first_start: { org_id: string | null; key: string } | null;
}

/** The announcement in errandd's stdout so far, or null until it has said where it listens. */
export function announcementOf(stdout: string): Announcement | null {
  const url = /^listening on (\S+)$/m.exec(stdout)?.[1];
  if (url === undefined) return null;
  const first = parseFirstStartNotice(stdout);
  return { url, first_start: first === null ? null : { org_id: first.orgId, key: first.key } };
}
