import { randomBytes } from 'node:crypto';
import { LinkSigner } from '../artifacts/link-signer.js';
import { LinkSignatureError } from '../artifacts/link-errors.js';
import type { Clock } from '../clock.js';
import { isTerminal, type RunStatus } from '../vocabulary/run-status.js';
import { LiveLinkOtherRunError, LiveLinkRevokedError, LiveLinkRunEndedError } from './live-errors.js';

/** How long a live link works: long enough to answer a request for help, short enough that a leaked one dies soon. */
export const LIVE_LINK_VALIDITY_S = 30 * 60;

/** How long a token made for a run is handed out again before a new one is made. */
export const LIVE_LINK_REISSUE_S = 60;
const MAX_ISSUED = 10_000;

const PURPOSE = 'errand live links v1';
const PREFIX = 'elv_';

/** What a verified live link grants: its one run of its one organisation, while the run has not ended. */
export interface LiveGrant {
  orgId: string;
  runId: string;
  /**
   * Which link it is: made for each token handed out to the run's API key or its person, and kept when the page renews
   * its token, so that what one link's holder may open (frame streams) follows the holder, not the token.
   */
  link: string;
}

export interface LiveLinksOptions {
  masterKey: Buffer;
  clock: Clock;
  /** Base of absolute links; a function because the port is known only once the daemon listens. */
  publicUrl: () => string;
  /** The run's status (null when there is no such run): a link grants nothing once its run has ended. */
  runStatus: (orgId: string, runId: string) => RunStatus | null;
}

/**
 * Live links: `<public_url>/v1/runs/<run>/live?token=<token>`, where the token (`elv_<org>.<run>.<generation>.<link>.
 * <expires>.<sig>`) is signed like an artifact link (`LinkSigner`, a key of its own derived from the master key)
 * over the organisation, the run, the run's revocation generation, the link's id and a secret of this daemon's
 * process. So a link is good for one run of one organisation, for `LIVE_LINK_VALIDITY_S`, until the run's links are
 * revoked (the generation moves on), the run ends, or the daemon restarts (links then get signed over another secret;
 * GET /v1/runs/{id} hands out a fresh one). Its holder renews it (`renewal`) as the same link.
 */
export class LiveLinks {
  private readonly signer: LinkSigner;
  private readonly boot = randomBytes(16).toString('base64url');
  /** Runs whose links were revoked, and how many times: a link of an earlier generation is refused. */
  private readonly generations = new Map<string, number>();
  /** The token last made for each run, handed out again for `LIVE_LINK_REISSUE_S`. */
  private readonly issued = new Map<string, { orgId: string; generation: number; atMs: number; token: string }>();
  /** The renewal last made for each link, handed out again for `LIVE_LINK_REISSUE_S` (the page asks every second). */
  private readonly renewed = new Map<string, { generation: number; atMs: number; token: string }>();

  constructor(private readonly o: LiveLinksOptions) {
    this.signer = new LinkSigner(o.masterKey, { purpose: PURPOSE, validityS: LIVE_LINK_VALIDITY_S });
  }

  /**
   * The live link of a run its caller knows to be running (only then has it a live view): every caller holds the
   * run's row already, and reading it again here cost GET /v1/runs/{id} a tenth of its requests per second.
   */
  urlOf(orgId: string, runId: string): string {
    return `${this.o.publicUrl()}/v1/runs/${runId}/live?token=${this.token(orgId, runId)}`;
  }

  /**
   * A token for the run, valid for at least `LIVE_LINK_VALIDITY_S` less `LIVE_LINK_REISSUE_S` from now: one made in
   * the last `LIVE_LINK_REISSUE_S` is handed out again, since minting one on every poll of a running run cost
   * GET /v1/runs/{id} a third of its requests per second (bench/api.ts).
   */
  token(orgId: string, runId: string): string {
    const generation = this.generations.get(runId) ?? 0;
    const nowMs = this.o.clock.now();
    const issued = this.issued.get(runId);
    if (issued !== undefined && issued.orgId === orgId && issued.generation === generation && nowMs < issued.atMs + LIVE_LINK_REISSUE_S * 1000) return issued.token;
    const token = this.make(orgId, runId, generation, randomBytes(9).toString('base64url'), nowMs);
    // Entries of ended runs are never asked for again: dropping them all now and then bounds the map.
    if (this.issued.size >= MAX_ISSUED) this.issued.clear();
    this.issued.set(runId, { orgId, generation, atMs: nowMs, token });
    return token;
  }

  /** The link of `grant` made again, valid for another `LIVE_LINK_VALIDITY_S`: what its holder is handed to go on. */
  renewal(grant: LiveGrant): string {
    const generation = this.generations.get(grant.runId) ?? 0;
    const nowMs = this.o.clock.now();
    const key = `${grant.runId}.${grant.link}`;
    const renewed = this.renewed.get(key);
    const token =
      renewed !== undefined && renewed.generation === generation && nowMs < renewed.atMs + LIVE_LINK_REISSUE_S * 1000
        ? renewed.token
        : this.make(grant.orgId, grant.runId, generation, grant.link, nowMs);
    if (token !== renewed?.token) {
      if (this.renewed.size >= MAX_ISSUED) this.renewed.clear();
      this.renewed.set(key, { generation, atMs: nowMs, token });
    }
    return `${this.o.publicUrl()}/v1/runs/${grant.runId}/live?token=${token}`;
  }

  /** Whether `token` looks like a live link's token (as opposed to an API key). */
  static isToken(token: string): boolean {
    return token.startsWith(PREFIX);
  }

  /**
   * What the token grants for `runId`: 403 for a token the daemon did not sign as it is (tampered, or made before a
   * restart), 410 once it expired, 403 for another run's token or a revoked one, 410 once the run has ended.
   */
  verify(token: string, runId: string): LiveGrant {
    const parts = token.startsWith(PREFIX) ? token.slice(PREFIX.length).split('.') : [];
    if (parts.length !== 6) throw new LinkSignatureError();
    const [orgId, linkRun, generationText, link, expiresText, sig] = parts as [string, string, string, string, string, string];
    if (!/^\d{1,9}$/.test(generationText) || !/^\d{1,12}$/.test(expiresText) || !/^[\w-]{1,32}$/.test(link)) throw new LinkSignatureError();
    const generation = Number(generationText);
    this.signer.verify(this.signed(orgId, linkRun, generation, link), { expires: Number(expiresText), sig }, this.o.clock.now());
    if (linkRun !== runId) throw new LiveLinkOtherRunError(runId);
    if (generation !== (this.generations.get(runId) ?? 0)) throw new LiveLinkRevokedError();
    const status = this.o.runStatus(orgId, runId);
    if (status !== null && isTerminal(status)) throw new LiveLinkRunEndedError(runId, status);
    return { orgId, runId, link };
  }

  /** Every link of the run made so far stops working; links made from now on work. */
  revoke(runId: string): void {
    this.generations.set(runId, (this.generations.get(runId) ?? 0) + 1);
  }

  private make(orgId: string, runId: string, generation: number, link: string, nowMs: number): string {
    const { expires, sig } = this.signer.queryFor(this.signed(orgId, runId, generation, link), nowMs);
    return `${PREFIX}${orgId}.${runId}.${generation}.${link}.${expires}.${sig}`;
  }

  private signed(orgId: string, runId: string, generation: number, link: string): string {
    return `${orgId}.${runId}.${generation}.${link}.${this.boot}`;
  }
}
