/**
 * The two clocks are two types (src/lib/server/clock.ts): a check, an expiry or a stored time
 * takes a `ServerTime`, and the caller's answer time (or anything parsed from a request) is a
 * type error there. The `@ts-expect-error` lines are the test: `npm run check` (svelte-check
 * over tests/) fails when one of them compiles, i.e. when a check would accept the answer time.
 */
import { describe, expect, it } from 'vitest';
import { issueNonce, nonceState } from '../../src/lib/server/auth/nonce';
import { checkLiveAutonomyAck } from '../../src/lib/server/autonomy/modes';
import { parseIsoInstant, readServerClock, resolveClock, type ServerTime } from '../../src/lib/server/clock';
import { planExpiresAt } from '../../src/lib/server/stocks/plan';
import type { StockReceiptStore } from '../../src/lib/server/stocks/store';
import { testContext } from '../support/caller';

describe('the answer time cannot reach a check, an expiry or a stored time', () => {
  it("is refused by the type checker wherever the server's clock is required", () => {
    const ctx = testContext();
    const pinned = resolveClock('2099-01-01T00:00:00Z', ctx.serverTime);

    // @ts-expect-error an answer time is not the clock of a nonce's life
    issueNonce(ctx.answerTime);
    // @ts-expect-error nor of a nonce's expiry check
    nonceState(null, pinned);
    // @ts-expect-error nor of a live-autonomy acknowledgment's age
    checkLiveAutonomyAck(undefined, ctx.answerTime);
    // @ts-expect-error nor the start of a plan's life
    planExpiresAt(ctx.answerTime);

    // The server's clock is accepted everywhere.
    expect(issueNonce(ctx.serverTime).expiresAt.getTime()).toBeGreaterThan(ctx.serverTime.getTime());
    expect(planExpiresAt(ctx.serverTime).getTime()).toBeGreaterThan(ctx.serverTime.getTime());
  });

  it('a time parsed from a request cannot become a server time, nor can an answer time be stored', () => {
    // @ts-expect-error a parsed nowIso is a plain Date, not a ServerTime
    const parsed: ServerTime = parseIsoInstant('2099-01-01T00:00:00Z')!;
    // @ts-expect-error the answer time is not a server time either
    const answered: ServerTime = testContext().answerTime;
    expect([parsed, answered].every((d) => d instanceof Date)).toBe(true);

    type ClaimAt = Parameters<StockReceiptStore['claimSubmission']>[1];
    // @ts-expect-error a stored lease time is the server's
    const lease: ClaimAt = resolveClock(undefined, readServerClock());
    expect(lease).toBeInstanceOf(Date);
  });
});
