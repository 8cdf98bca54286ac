/** How long an idempotency key answers with its run (the decisions page: 24 h); retention purges keys after it. */
export const IDEMPOTENCY_WINDOW_MS = 24 * 3600 * 1000;
