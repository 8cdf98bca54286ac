const WIDTH = 76;

/**
 * What errandd prints on stdout on a data directory's first start: the new organisation and its first API key in
 * a block set off by rules and blank lines from the log lines on stderr, which a terminal shows around it, and no
 * wider than 80 columns. The key is on a line by itself (`errand daemon start` and the tests read it from there).
 */
export function firstStartNotice(first: { orgId: string; key: string; saved: boolean }, credentialsPath: string): string {
  const title = '── First start ';
  return [
    '',
    `${title}${'─'.repeat(WIDTH - title.length)}`,
    ` Created the organisation "default" (${first.orgId})`,
    ' and its first API key, shown only this once:',
    '',
    `   ${first.key}`,
    '',
    ...(first.saved
      ? [' The CLI on this machine already uses it: it is saved (0600) in', ` ${credentialsPath}.`]
      : [' It is not saved for the CLI: that file already holds a key:', ` ${credentialsPath}.`]),
    ' Give it to other clients as ERRAND_API_KEY.',
    '─'.repeat(WIDTH),
    '',
    '',
  ].join('\n');
}

/** The organisation id and key out of errandd's stdout, or null when it was not a first start. */
export function parseFirstStartNotice(stdout: string): { orgId: string | null; key: string } | null {
  const key = /^ {3}(ek_\S+)$/m.exec(stdout)?.[1];
  if (key === undefined) return null;
  return { orgId: /Created the organisation "default" \((org_\w+)\)/.exec(stdout)?.[1] ?? null, key };
}
