import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { LinkExpiredError, LinkSignatureError } from '../../src/artifacts/link-errors.js';
import { LIVE_LINK_REISSUE_S, LIVE_LINK_VALIDITY_S, LiveLinks } from '../../src/live/live-links.js';
import { LiveLinkOtherRunError, LiveLinkRevokedError, LiveLinkRunEndedError } from '../../src/live/live-errors.js';
import type { RunStatus } from '../../src/vocabulary/run-status.js';

const ORG = 'org_01jd0000000000000000000000';
const RUN = 'run_01jd0000000000000000000001';
const OTHER_RUN = 'run_01jd0000000000000000000002';

function links(options: { masterKey?: Buffer } = {}) {
  let now = Date.parse('2026-11-28T00:00:00Z');
  const statuses = new Map<string, RunStatus>();
  const l = new LiveLinks({
    masterKey: options.masterKey ?? randomBytes(32),
    clock: { now: () => now },
    publicUrl: () => 'http://127.0.0.1:7700',
    runStatus: (orgId, runId) => (orgId === ORG ? (statuses.get(runId) ?? 'running') : null),
  });
  return { l, advance: (ms: number) => (now += ms), end: (runId: string, status: RunStatus) => statuses.set(runId, status) };
}

/** The grant a verified token gives, its link id being whatever the token carries. */
const grantOf = (runId: string) => ({ orgId: ORG, runId, link: expect.stringMatching(/^[\w-]{12}$/) });

describe('LiveLinks', () => {
  it('makes a link to the run’s page', () => {
    expect(links().l.urlOf(ORG, RUN)).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:7700/v1/runs/${RUN}/live\\?token=elv_${ORG}\\.${RUN}\\.0\\.[\\w-]{12}\\.\\d+\\.[\\w-]+$`));
  });

  it('hands out the same token for a minute, then a new one; a revocation makes a new one at once', () => {
    const { l, advance } = links();
    const first = l.token(ORG, RUN);
    advance(LIVE_LINK_REISSUE_S * 1000 - 1000);
    expect(l.token(ORG, RUN)).toBe(first);
    advance(1000);
    const second = l.token(ORG, RUN);
    expect(second).not.toBe(first);
    expect(l.verify(second, RUN)).toEqual(grantOf(RUN));
    l.revoke(RUN);
    const third = l.token(ORG, RUN);
    expect(third).not.toBe(second);
    expect(l.verify(third, RUN)).toEqual(grantOf(RUN));
    expect(() => l.verify(second, RUN)).toThrow(LiveLinkRevokedError);
  });

  it('grants the run of its organisation until it expires, then answers 410', () => {
    const { l, advance } = links();
    const token = l.token(ORG, RUN);
    expect(l.verify(token, RUN)).toEqual(grantOf(RUN));
    advance(LIVE_LINK_VALIDITY_S * 1000 - 1000);
    expect(l.verify(token, RUN)).toEqual(grantOf(RUN));
    advance(1000);
    expect(() => l.verify(token, RUN)).toThrow(LinkExpiredError);
  });

  it('refuses a changed organisation, run, generation, expiry or signature as a forgery (403)', () => {
    const { l } = links();
    const token = l.token(ORG, RUN);
    const [org, run, generation, link, expires, sig] = token.slice('elv_'.length).split('.') as [string, string, string, string, string, string];
    const forged = [
      `elv_org_01jd0000000000000000000009.${run}.${generation}.${link}.${expires}.${sig}`,
      `elv_${org}.${OTHER_RUN}.${generation}.${link}.${expires}.${sig}`,
      `elv_${org}.${run}.1.${link}.${expires}.${sig}`,
      `elv_${org}.${run}.${generation}.${link.slice(1)}x.${expires}.${sig}`,
      `elv_${org}.${run}.${generation}.${link}.${Number(expires) + 60}.${sig}`,
      `elv_${org}.${run}.${generation}.${link}.${expires}.${sig.slice(1)}x`,
      `elv_${org}.${run}.${generation}.${expires}.${sig}`,
      'elv_nonsense',
      '',
    ];
    for (const bad of forged) expect(() => l.verify(bad, bad.includes(OTHER_RUN) ? OTHER_RUN : RUN)).toThrow(LinkSignatureError);
  });

  it('refuses a genuine link for another run than its own', () => {
    const { l } = links();
    expect(() => l.verify(l.token(ORG, RUN), OTHER_RUN)).toThrow(LiveLinkOtherRunError);
  });

  it('refuses links made before a revocation, and accepts those made after', () => {
    const { l } = links();
    const before = l.token(ORG, RUN);
    const otherRun = l.token(ORG, OTHER_RUN);
    l.revoke(RUN);
    expect(() => l.verify(before, RUN)).toThrow(LiveLinkRevokedError);
    expect(l.verify(l.token(ORG, RUN), RUN).runId).toBe(RUN);
    expect(l.verify(otherRun, OTHER_RUN).runId).toBe(OTHER_RUN);
  });

  it('makes a new link for each token it hands out, and renews a link as the same link', () => {
    const { l, advance } = links();
    const first = l.verify(l.token(ORG, RUN), RUN);
    advance(LIVE_LINK_REISSUE_S * 1000);
    const second = l.verify(l.token(ORG, RUN), RUN);
    expect(second.link).not.toBe(first.link);
    const renewed = new URL(l.renewal(first)).searchParams.get('token')!;
    expect(l.verify(renewed, RUN)).toEqual(first);
    // Valid for its own 30 minutes, past the first token's.
    advance(LIVE_LINK_VALIDITY_S * 1000 - 1000);
    expect(l.verify(renewed, RUN)).toEqual(first);
  });

  it.each(['succeeded', 'failed', 'cancelled'] as const)('grants nothing once the run has %s: 410 live_link_run_ended, saying how it ended', (status) => {
    const { l, end } = links();
    const token = l.token(ORG, RUN);
    end(RUN, status);
    const refused = (() => {
      try {
        l.verify(token, RUN);
      } catch (error) {
        return error;
      }
      return null;
    })();
    expect(refused).toBeInstanceOf(LiveLinkRunEndedError);
    expect(refused).toMatchObject({ status: 410, code: 'live_link_run_ended' });
    expect((refused as Error).message).toMatch({ succeeded: /^The run succeeded\. /, failed: /^The run failed\. /, cancelled: /^The run was cancelled\. / }[status]);
    // A queued run (its attempt is to be retried) has not ended.
    end(RUN, 'queued');
    expect(l.verify(token, RUN)).toEqual(grantOf(RUN));
  });

  it('refuses the links of another daemon process, even under the same master key', () => {
    const masterKey = randomBytes(32);
    const token = links({ masterKey }).l.token(ORG, RUN);
    expect(() => links({ masterKey }).l.verify(token, RUN)).toThrow(LinkSignatureError);
  });
});
