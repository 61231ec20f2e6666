/**
 * Stock lane domain: the documented plan hash, command phrases and the venue phrase, the
 * state machine of interface 3.1, the console-verification detector, and the wording of every
 * state and reason (none of it may read as an execution claim).
 */
import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import { describe, expect, it } from 'vitest';
import { SvcError } from '../../src/lib/server/errors';
import { findExecutionClaim } from '../../src/lib/server/guards/output-guard';
import { assertVenuePhrase, partnerCommand, publicPartnerApiBase, tradePhrase } from '../../src/lib/server/stocks/command-pack';
import { normalizeIntent, validateStockIntent, type StockIntentInput } from '../../src/lib/server/stocks/intent';
import { asksForExternalVerification } from '../../src/lib/server/partner/agent-api';
import { checkSubmitGates } from '../../src/lib/server/stocks/submit-gates';
import { computePlanHash } from '../../src/lib/server/stocks/plan';
import {
  chainProofTransition,
  jobStatusTransition,
  PARTNER_JOB_STATUSES,
  REASON_MEANING,
  RECEIPT_STATUSES,
  STATUS_MEANING,
  type ReceiptStatus,
} from '../../src/lib/server/stocks/status';
import { intent, NVDA } from '../support/stock-intents';

/** The shared valid test intent, typed for the domain functions. */
function input(overrides: Partial<StockIntentInput> = {}): StockIntentInput {
  return intent(overrides as Record<string, unknown>) as unknown as StockIntentInput;
}

describe('plan hash', () => {
  it('is SHA-256 of the RFC 8785 JSON of { generatedAt, intent }, whatever the key order', () => {
    const at = new Date('2026-05-01T12:00:00Z');
    const { intent } = validateStockIntent(input(), { maxNotionalUsd: 500 });
    const expected = createHash('sha256')
      .update(canonicalize({ intent, generatedAt: '2026-05-01T12:00:00.000Z' })!)
      .digest('hex');
    expect(computePlanHash(intent, at)).toBe(expected);
    const reordered = Object.fromEntries(Object.entries(intent).reverse());
    expect(computePlanHash(reordered, at)).toBe(expected);
    expect(computePlanHash(intent, new Date(at.getTime() + 1))).not.toBe(expected);
  });

  it('hashes the validated intent exactly as submit normalises the raw one', () => {
    const raw = input({ targetSymbol: ' nvda ', targetTokenAddress: NVDA.toLowerCase() });
    const { intent } = validateStockIntent(raw, { maxNotionalUsd: 500 });
    expect(normalizeIntent(raw)).toEqual(intent);
    expect(intent).not.toHaveProperty('venue');
  });
});

describe('validation never clamps', () => {
  it('throws with the rule codes and returns no corrected intent', () => {
    let caught: unknown;
    try {
      validateStockIntent(input({ maxSlippageBps: 800, maxNotionalUsd: 600 }), { maxNotionalUsd: 500 });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(SvcError);
    expect((caught as SvcError).code).toBe('STOCK_INTENT_INVALID');
    expect((caught as SvcError).issues.map((i) => i.code)).toEqual(['NOTIONAL_ABOVE_CAP', 'SLIPPAGE_ABOVE_CAP']);
  });

  it('applies the cap it is given (submit revalidates with the current one)', () => {
    expect(() => validateStockIntent(input({ maxNotionalUsd: 200 }), { maxNotionalUsd: 500 })).not.toThrow();
    expect(() => validateStockIntent(input({ maxNotionalUsd: 200 }), { maxNotionalUsd: 100 })).toThrow(SvcError);
  });
});

describe('submit gates (pure, transmit nothing)', () => {
  const at = new Date('2026-05-01T12:00:00Z');
  const cfg = (over: Partial<{ agentApiEnabled: boolean; apiKey: string; cap: number }> = {}) => ({
    partner: {
      apiUrl: 'http://127.0.0.1:9',
      apiKey: 'apiKey' in over ? over.apiKey : 'k'.repeat(16),
      agentApiEnabled: over.agentApiEnabled ?? true,
      stockTradeMaxNotionalUsd: over.cap ?? 500,
      timeoutMs: 1000,
    },
  });
  const gateCode = (fn: () => unknown) => {
    try {
      fn();
      return 'passed';
    } catch (error) {
      return (error as SvcError).code;
    }
  };

  it('apply in the order lane, hash, revalidation, mode', () => {
    const rebalanceOverCap = input({ mode: 'vault_operator_rebalance', venue: 'broker', maxNotionalUsd: 400, inputAmount: '300' });
    const hash = computePlanHash(normalizeIntent(rebalanceOverCap), at);
    const submit = (i: StockIntentInput, h: string) => ({ intent: i, userConfirmedPlanHash: h, planGeneratedAt: at });
    expect(gateCode(() => checkSubmitGates(submit(rebalanceOverCap, 'x'), cfg({ agentApiEnabled: false })))).toBe('LANE_NOT_ENABLED');
    expect(gateCode(() => checkSubmitGates(submit(rebalanceOverCap, 'x'), cfg({ apiKey: undefined })))).toBe('LANE_NOT_ENABLED');
    expect(gateCode(() => checkSubmitGates(submit(rebalanceOverCap, 'x'), cfg({ cap: 100 })))).toBe('PLAN_HASH_MISMATCH');
    expect(gateCode(() => checkSubmitGates(submit(rebalanceOverCap, hash), cfg({ cap: 100 })))).toBe('STOCK_INTENT_INVALID');
    expect(gateCode(() => checkSubmitGates(submit(rebalanceOverCap, hash), cfg()))).toBe('VAULT_REBALANCE_NOT_ALLOWED_HERE');
    const personal = input();
    expect(gateCode(() => checkSubmitGates(submit(personal, computePlanHash(normalizeIntent(personal), at).toUpperCase()), cfg()))).toBe(
      'passed',
    );
  });
});

describe('command pack', () => {
  it('derives the phrase from the side, the amount and the ticker', () => {
    expect(tradePhrase({ side: 'buy', inputAmount: '25', targetSymbol: 'NVDA' })).toBe('buy $25 of NVDA');
    expect(tradePhrase({ side: 'swap', inputAmount: '0.5', targetSymbol: 'SPY' })).toBe('swap $0.5 of USDG to SPY');
    expect(tradePhrase({ side: 'sell', inputAmount: '10', targetSymbol: 'TSLA' })).toBe('sell $10 of TSLA');
    const { intent } = validateStockIntent(input(), { maxNotionalUsd: 500 });
    expect(partnerCommand(intent)).toBe('buy $25 of NVDA on broker');
  });

  it('refuses a command without the explicit venue phrase', () => {
    expect(() => assertVenuePhrase('buy $25 of NVDA')).toThrow(/on broker/);
    expect(() => assertVenuePhrase('buy $25 of NVDA on brokerage')).toThrow(SvcError);
    expect(assertVenuePhrase('buy $25 of NVDA on broker')).toBe('buy $25 of NVDA on broker');
  });
});

describe('receipt state machine', () => {
  it('maps the five partner statuses to job_* states and never to a fill', () => {
    const mapped = PARTNER_JOB_STATUSES.map((s) => jobStatusTransition('job_pending', s).next);
    expect(mapped).toEqual(['job_pending', 'job_processing', 'job_completed_unconfirmed', 'job_failed', 'job_cancelled']);
    expect(RECEIPT_STATUSES.some((s) => /fill|settled|executed/.test(s))).toBe(false);
  });

  it('keeps on-chain proof against any partner status', () => {
    for (const current of ['onchain_confirmed', 'onchain_reverted'] as ReceiptStatus[]) {
      for (const s of PARTNER_JOB_STATUSES)
        expect(jobStatusTransition(current, s)).toEqual({ next: current, reason: 'ONCHAIN_PROOF_KEPT' });
    }
  });

  it('moves on a chain verdict for this plan, and only on one', () => {
    const tx = '0x' + 'aa'.repeat(32);
    const other = '0x' + 'bb'.repeat(32);
    const confirmed = { kind: 'confirmed' as const, txHash: tx, blockNumber: '7' };
    const reverted = { kind: 'reverted' as const, txHash: tx, blockNumber: '7' };
    const noProof = (reason: 'TX_NOT_FOR_TARGET_TOKEN' | 'TX_PROVES_OTHER_PLAN', txHash = tx) => ({
      kind: 'no_proof' as const,
      txHash,
      blockNumber: '7',
      reason,
    });
    expect(chainProofTransition('job_pending', null, confirmed)).toEqual({ next: 'onchain_confirmed' });
    expect(chainProofTransition('job_pending', null, reverted)).toEqual({ next: 'onchain_reverted' });
    expect(chainProofTransition('job_completed_unconfirmed', null, { kind: 'not_found', txHash: tx })).toEqual({
      next: 'prepared',
      reason: 'TX_RECEIPT_NOT_FOUND',
    });
    expect(chainProofTransition('job_pending', null, noProof('TX_NOT_FOR_TARGET_TOKEN'))).toEqual({
      next: 'prepared',
      reason: 'TX_NOT_FOR_TARGET_TOKEN',
    });
    expect(chainProofTransition('job_pending', null, { kind: 'unverified', txHash: tx, reason: 'CHAIN_ID_MISMATCH' })).toEqual({
      next: 'job_pending',
      reason: 'CHAIN_ID_MISMATCH',
    });
    // onchain_confirmed: no proof keeps it; another transaction does not move it; a new receipt of the same transaction does.
    expect(chainProofTransition('onchain_confirmed', tx, { kind: 'not_found', txHash: tx })).toEqual({
      next: 'onchain_confirmed',
      reason: 'ONCHAIN_PROOF_KEPT',
    });
    expect(chainProofTransition('onchain_confirmed', tx, { ...reverted, txHash: other })).toEqual({
      next: 'onchain_confirmed',
      reason: 'ALREADY_CONFIRMED_BY_OTHER_TX',
    });
    expect(chainProofTransition('onchain_confirmed', tx, reverted)).toEqual({ next: 'onchain_reverted' });
    expect(chainProofTransition('onchain_reverted', tx, { ...confirmed, txHash: other })).toEqual({ next: 'onchain_confirmed' });
    expect(chainProofTransition('onchain_reverted', tx, { kind: 'not_found', txHash: other })).toEqual({
      next: 'onchain_reverted',
      reason: 'ONCHAIN_PROOF_KEPT',
    });
    expect(chainProofTransition('onchain_reverted', tx, noProof('TX_PROVES_OTHER_PLAN', other))).toEqual({
      next: 'onchain_reverted',
      reason: 'TX_PROVES_OTHER_PLAN',
    });
  });
});

describe('the partner address in a command pack', () => {
  it('shows a configured http(s) address without trailing slashes, and never one that carries credentials or a query', () => {
    expect(publicPartnerApiBase('https://api.partner.example/')).toBe('https://api.partner.example');
    expect(publicPartnerApiBase('https://api.partner.example/v1//')).toBe('https://api.partner.example/v1');
    expect(publicPartnerApiBase(undefined)).toBeUndefined();
    expect(publicPartnerApiBase('https://user:secret@api.partner.example')).toBeUndefined();
    expect(publicPartnerApiBase('https://api.partner.example/?key=abc')).toBeUndefined();
    expect(publicPartnerApiBase('ftp://api.partner.example')).toBeUndefined();
    expect(publicPartnerApiBase('not a url')).toBeUndefined();
  });
});

describe('partner console verification', () => {
  it('recognises a refusal that asks for verification, and nothing else', () => {
    expect(asksForExternalVerification({ error: 'Complete identity verification in the console' })).toBe(true);
    expect(asksForExternalVerification({ code: 'VERIFICATION_REQUIRED' })).toBe(true);
    expect(asksForExternalVerification({ message: 'Please verify your account' })).toBe(true);
    expect(asksForExternalVerification({ error: 'Invalid API key' })).toBe(false);
    expect(asksForExternalVerification('verification')).toBe(false);
    expect(asksForExternalVerification(undefined)).toBe(false);
  });
});

describe('wording', () => {
  it('no state meaning and no reason reads as an execution claim', () => {
    for (const text of [...Object.values(STATUS_MEANING), ...Object.values(REASON_MEANING)]) {
      expect(findExecutionClaim(text), text).toBeUndefined();
    }
  });

  it("the guard would block a partner's own completion text, which is why it is never relayed", () => {
    expect(findExecutionClaim('I bought 0.18 NVDA for you.')).toBeDefined();
  });
});
