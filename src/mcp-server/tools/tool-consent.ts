/**
 * What a grant lets a client do, in the groups the consent page lists (issue 21, item 10), in the page's order: what
 * spends money and what cannot be undone first. Each tool says, in its own file, which group it belongs to and what
 * it lets a client do; the page lists the tools `tools/list` serves, so a new tool cannot be left off it.
 */
export const CONSENT_GROUPS = {
  act: 'Start and stop work, billed to the organisation and counted against the caps of the API key you sign in with',
  send_mail: "Send email in the organisation's name, which cannot be recalled once sent",
  connect: "Connect accounts, which the organisation's runs then act as",
  read: "See the organisation's work",
} as const;

export type ConsentGroup = keyof typeof CONSENT_GROUPS;

/** One tool's line on the consent page: a short phrase that completes "If you allow it, it can: ...". */
export interface ToolConsent {
  group: ConsentGroup;
  grants: string;
}

/** A group of the consent page with the lines of its tools, in the order `tools/list` gives them. */
export interface ConsentSection {
  group: ConsentGroup;
  heading: string;
  items: { tool: string; grants: string }[];
}

/** The consent page's sections for these tools: every group that has a tool, in `CONSENT_GROUPS` order. */
export function consentSections(tools: readonly { name: string; consent: ToolConsent }[]): ConsentSection[] {
  return (Object.keys(CONSENT_GROUPS) as ConsentGroup[])
    .map((group) => ({
      group,
      heading: CONSENT_GROUPS[group],
      items: tools.filter((t) => t.consent.group === group).map((t) => ({ tool: t.name, grants: t.consent.grants })),
    }))
    .filter((section) => section.items.length > 0);
}
