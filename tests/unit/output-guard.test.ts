import { describe, expect, it } from 'vitest';
import { findExecutionClaim, scanForExecutionClaims } from '../../src/lib/server/guards/output-guard';
import { collectCallerStrings, finishAnswer, finishError, OutputGuardBlocked } from '../../src/lib/server/guards/finish-answer';
import { SvcError } from '../../src/lib/server/errors';

const TX = '0x' + 'ab'.repeat(32);

/** Sentences that claim an execution happened without proof: each must be blocked. */
const CLAIMS = [
  'The service placed your order.',
  'svc executed the trade for you.',
  'Your order has been filled.',
  'The vault deposited 100 USDG on your behalf.',
  'The agent bought 10 NVDA tokens.',
  'Partner sold your TSLA position.',
  'We swapped your USDG for WETH.',
  'Order placed successfully.',
  'Trade executed.',
  'The partner executed the rebalance.',
  'Your deposit was settled.',
  'The agent has sent 50 USDG to the vault.',
  'The vault redeemed your shares.',
  'The vault withdrew 200 USDG.',
  'We have successfully traded your basket.',
  'The service has just filled the order at market.',
  'Partnerbot bought $25 of NVDA on broker.',
  'Your trade was executed at the best price.',
  'Executed your order for AAPL.',
  'Bought 3 SPY tokens for your basket.',
  'The strategist placed three orders.',
  'The facilitator settled your payment and the service sent the report.',
  'Funds were sent to your wallet.',
  'The swap was successfully executed.',
  'The purchase has been completed and the shares were transferred.',
  'Your withdrawal has been processed: funds were withdrawn.',
  'I bought the dip for you.',
  'The agent automatically rebalanced your vault.',
  'This service sold half of your META.',
  'The partner already filled the order.',
  'Orders were placed across all 5 assets.',
  'The system executed 12 trades today.',
  'Your redemption was settled in USDG.',
  'The bot swapped WETH to USDG.',
  'Payment settled.',
  'Your position was sold at 14:02 UTC.',
  'The vault has deposited your USDG into the strategy.',
  'svc traded the basket overnight.',
  'The agent purchased 2 QQQ.',
  'Deposit executed by the vault.',
  'The keeper settled the batch and the deposit was settled.',
  'Partner has executed your intent.',
];

/** Honest sentences: disclaimers, hedged or proven statements. Each must pass. */
const HONEST = [
  'No order is placed.',
  'The service never executes a trade.',
  'No order is ever placed by this service; it prepares plans and command packs only.',
  'svc does not place orders, hold keys or take custody.',
  'The partner executes the trade, not this service.',
  'Nothing was sent to any broker.',
  'This is a paper plan: nothing has been executed.',
  'The job is reported completed by the partner, unconfirmed on chain.',
  `The trade was executed on chain: onchain_confirmed, tx ${TX}.`,
  `The partner filled the order; transaction hash ${TX} is on-chain confirmed.`,
  'Once the partner has filled the order, reconcile its transaction hash here.',
  'If the vault deposited funds, the Deposit event proves it.',
  'When the agent has sold the position, submit the hash for reconciliation.',
  'Did the agent buy NVDA?',
  'A job status is not a fill; only an on-chain confirmed receipt counts.',
  'Deposits complete only when a confirmed transaction emitted the Deposit event.',
  'The user signs their own transaction; the service never sends one.',
  'The deposit has not been confirmed yet.',
  'The partner has not executed anything for this plan.',
  'No trade was executed.',
  'No funds were sent.',
  'The capsule says what a human must still confirm and never contains an order.',
  'Buy $25 of NVDA on broker is the command text for the partner to run.',
  'This command pack was prepared for the partner; it is not an order.',
  'The vault would have deposited the amount only after your signature.',
  'Rebalancing is inactive by owner policy.',
  'Capacity is unknown because the read failed.',
  'Not investment advice.',
  'The service cannot place, fill or settle orders.',
  'Payment settlement is unknown; keep the authorization nonce for reconciliation.',
  'The facilitator settles the payment on the broker chain.',
  'Weights sum to exactly 10000 bps.',
  'Intents are previews and require human confirmation.',
  'The vault never deposited anything without proof.',
  'Neither the agent nor the service sold anything.',
  'Order status: preview only; not submitted.',
  `The deposit settled: onchain_confirmed in block 12, tx ${TX}.`,
  'The swap executed on chain is not yet confirmed.',
  'Abort if the user has not confirmed this specific order.',
  'Stock tokens are economic exposure, not direct stock ownership.',
  'The service prepares calldata that the user signs in their own wallet.',
];

describe('output guard corpus', () => {
  it('has at least 40 claims and 40 honest sentences', () => {
    expect(CLAIMS.length).toBeGreaterThanOrEqual(40);
    expect(HONEST.length).toBeGreaterThanOrEqual(40);
  });

  it.each(CLAIMS)('blocks: %s', (sentence) => {
    expect(findExecutionClaim(sentence)).toBeDefined();
  });

  it.each(HONEST)('passes: %s', (sentence) => {
    expect(findExecutionClaim(sentence)).toBeUndefined();
  });
});

describe('scanForExecutionClaims', () => {
  it('finds a claim at any depth and names its path', () => {
    const hit = scanForExecutionClaims({ a: { b: ['fine', 'The agent bought 10 NVDA.'] } });
    expect(hit?.path).toBe('a.b[1]');
  });

  it('passes clean documents', () => {
    expect(scanForExecutionClaims({ disclaimer: 'No order is placed.', n: 1, ok: true, list: [null] })).toBeUndefined();
  });
});

describe('finishAnswer', () => {
  const secrets = ['svc-secret-value-123'];

  it('refuses a claim of the service and names its path, never its text', () => {
    let thrown: unknown;
    try {
      finishAnswer({ result: { note: 'The vault deposited 10 USDG.' } }, { secrets });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(OutputGuardBlocked);
    expect(thrown).toMatchObject({ code: 'OUTPUT_GUARD', blockedPath: 'result.note' });
    expect(JSON.stringify(thrown)).not.toContain('deposited');
  });

  it("lets the caller's own words through: a string the request carried, verbatim, or a declared stored document", () => {
    const request = { vaults: [{ label: 'The agent sold NVDA' }], prompt: 'the agent bought NVDA' };
    const callerStrings = () => collectCallerStrings(request);
    expect(finishAnswer({ columns: [{ label: 'The agent sold NVDA' }] }, { secrets, callerStrings }).answer).toEqual({
      columns: [{ label: 'The agent sold NVDA' }],
    });
    // Quoted inside a sentence of the service (even upper-cased), the caller's words are still theirs...
    expect(
      finishAnswer({ reason: 'THE AGENT SOLD NVDA is 4000 bps above its target.' }, { secrets, callerStrings }).report.secretScrubbed,
    ).toBe(false);
    // ...but a claim the service makes around the caller's words is the service's claim.
    const ticker = () => collectCallerStrings({ ticker: 'NVDA' });
    expect(() => finishAnswer({ note: 'The agent sold NVDA.' }, { secrets, callerStrings: ticker })).toThrow(OutputGuardBlocked);
    expect(
      finishAnswer({ items: [{ manifest: { memo: 'The agent sold NVDA' } }] }, { secrets, callerPaths: ['items.*.manifest'] }).report
        .secretScrubbed,
    ).toBe(false);
    expect(() => finishAnswer({ items: [{ other: 'The agent sold NVDA' }] }, { secrets, callerPaths: ['items.*.manifest'] })).toThrow(
      OutputGuardBlocked,
    );
  });

  it('scrubs a secret in values and keys, returns the same object when there is none, and can scrub without refusing', () => {
    const clean = { a: 'fine' };
    expect(finishAnswer(clean, { secrets }).answer).toBe(clean);
    const { answer, report } = finishAnswer({ a: 'x svc-secret-value-123 y', ['svc-secret-value-123']: 1 }, { secrets });
    expect(report.secretScrubbed).toBe(true);
    expect(JSON.stringify(answer)).not.toContain('svc-secret-value-123');
    expect(finishAnswer({ note: 'The vault deposited 10 USDG.' }, { secrets, guardClaims: false }).answer).toEqual({
      note: 'The vault deposited 10 USDG.',
    });
  });

  it('stamps through a schema before checking', () => {
    const schema = { parse: (v: unknown) => ({ ...(v as object), liveOrderSent: false }) };
    expect(finishAnswer({ a: 1 }, { secrets, schema }).answer).toEqual({ a: 1, liveOrderSent: false });
  });

  it('walks a deep answer without recursion', () => {
    let deep: unknown = 'The agent sold NVDA';
    for (let i = 0; i < 20_000; i++) deep = [deep];
    expect(() => finishAnswer(deep, { secrets })).toThrow(OutputGuardBlocked);
  });

  it('finishes errors: the strategist failure echoes the prompt, a claim of the service becomes OUTPUT_GUARD, a secret is scrubbed', () => {
    const prompt = 'the agent bought NVDA';
    const failure = new SvcError('PARTNER_TIMEOUT', 'partner timed out', {
      body: { error: 'partner timed out', code: 'PARTNER_TIMEOUT', prompt },
    });
    expect(finishError(failure, { secrets, callerStrings: () => collectCallerStrings({ prompt }) }).error).toBe(failure);
    expect(finishError(new SvcError('X', 'The partner sold your NVDA.'), { secrets }).error.code).toBe('OUTPUT_GUARD');
    // An issue path is the caller's field name, never a statement of the service.
    const stray = new SvcError('INPUT_INVALID', 'The request did not match the expected shape', {
      issues: [{ code: 'UNRECOGNIZED_KEYS', message: 'unknown field', path: 'intent.The agent sold NVDA' }],
    });
    expect(finishError(stray, { secrets }).error).toBe(stray);
    const leaked = finishError(new SvcError('X', 'upstream said svc-secret-value-123'), { secrets });
    expect(leaked.report.secretScrubbed).toBe(true);
    expect(leaked.error.message).not.toContain('svc-secret-value-123');
  });
});
