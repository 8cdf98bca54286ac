/**
 * Per-client limits of the inbound SMTP server: connections one address holds open at once, and messages it may
 * send per minute (a token bucket refilled continuously, bursts up to the per-minute figure). A client over either
 * is told to come back later (421, 451), which well-behaved senders do.
 */
export class InboundLimits {
  private readonly open = new Map<string, number>();
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly connectionsPerIp: number,
    private readonly messagesPerMinute: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts a new connection; false (and not counted) when the address already holds its share. */
  connect(ip: string): boolean {
    const n = this.open.get(ip) ?? 0;
    if (n >= this.connectionsPerIp) return false;
    this.open.set(ip, n + 1);
    return true;
  }

  disconnect(ip: string): void {
    const n = (this.open.get(ip) ?? 1) - 1;
    if (n <= 0) this.open.delete(ip);
    else this.open.set(ip, n);
  }

  /** Takes one message from the address's allowance; false when it has none left this minute. */
  takeMessage(ip: string): boolean {
    const now = this.now();
    const perMs = this.messagesPerMinute / 60_000;
    const bucket = this.buckets.get(ip) ?? { tokens: this.messagesPerMinute, at: now };
    bucket.tokens = Math.min(this.messagesPerMinute, bucket.tokens + (now - bucket.at) * perMs);
    bucket.at = now;
    if (bucket.tokens < 1) {
      this.buckets.set(ip, bucket);
      return false;
    }
    bucket.tokens -= 1;
    this.buckets.set(ip, bucket);
    // Full buckets carry no information: forget them, so that the map holds only recent senders.
    if (this.buckets.size > 10_000) for (const [key, b] of this.buckets) if (b.tokens + (now - b.at) * perMs >= this.messagesPerMinute) this.buckets.delete(key);
    return true;
  }
}
