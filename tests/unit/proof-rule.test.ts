/**
 * The one proof rule (src/lib/server/proof/rule.ts) and the vault lane's terms
 * (proof/vault-deposit.ts): the shared checks in their order and with their names, where a
 * claim stands against a transaction's holder, the amount bands, and a deposit judged for a
 * Mode B job and for a raw status.
 */
import { describe, expect, it } from 'vitest';
import { checkClaim, claimStanding, exactBand, minedAfter, ProofRun, slippageBand, type ProofClaim } from '../../src/lib/server/proof/rule';
import { judgeDeposit, type DepositFacts } from '../../src/lib/server/proof/vault-deposit';
import { serverTimeAt } from '../support/clocks';

const CREATED = serverTimeAt('2026-05-01T12:00:00.700Z');
const CREATED_SECOND = Math.floor(CREATED.getTime() / 1000);
const WALLET = '0x00000000000000000000000000000000000000A7';
const JOB = { lane: 'vault_deposit_job' as const, id: 'bvd_self' };

const claim = (over: Partial<ProofClaim> = {}): ProofClaim => ({
  subject: JOB,
  firstSeenAt: CREATED,
  binding: 'partner_job',
  holder: null,
  ...over,
});
const deposit = (over: Partial<DepositFacts> = {}): DepositFacts => ({
  success: true,
  toIsVault: true,
  blockTimestamp: CREATED_SECOND + 12,
  events: [{ receiver: WALLET, assets: 12_500_000n }],
  ...over,
});
const names = (checks: Array<{ check: string; passed: boolean }>) => checks.map((c) => `${c.check}:${c.passed}`);

describe('the shared checks', () => {
  it('mined after the first sight counts whole seconds (the block clock) and reads only a server time', () => {
    expect(minedAfter(CREATED_SECOND, CREATED)).toBe(true);
    expect(minedAfter(CREATED_SECOND - 1, CREATED)).toBe(false);
  });

  it('run in order, the first failure ends them, and a status without a subject runs neither', () => {
    const before = new ProofRun();
    expect(checkClaim(before, CREATED_SECOND - 1, claim())).toEqual({ failed: 'mined_after_first_sight' });
    expect(names(before.checks)).toEqual(['mined_after_first_sight:false']);

    const held = new ProofRun();
    const other = { lane: 'vault_deposit_job' as const, id: 'bvd_other', binding: 'partner_job' as const };
    expect(checkClaim(held, CREATED_SECOND, claim({ holder: other }))).toEqual({ failed: 'not_proof_of_other_subject' });
    expect(names(held.checks)).toEqual(['mined_after_first_sight:true', 'not_proof_of_other_subject:false']);

    const none = new ProofRun();
    expect(checkClaim(none, 0, claim({ firstSeenAt: null, holder: undefined }))).toEqual({ standing: null });
    expect(none.checks).toEqual([]);
  });

  it('a partner job outranks a caller claim of the same lane only; equal bindings leave the first holder', () => {
    const of = (lane: 'stock_plan' | 'vault_deposit_job', binding: 'partner_job' | 'caller_claim') => ({ lane, id: 'x', binding });
    expect(claimStanding({ subject: JOB, binding: 'partner_job' }, of('vault_deposit_job', 'caller_claim'))).toBe('takes_over');
    expect(claimStanding({ subject: JOB, binding: 'partner_job' }, of('vault_deposit_job', 'partner_job'))).toBe('held_by_other');
    expect(claimStanding({ subject: JOB, binding: 'caller_claim' }, of('vault_deposit_job', 'caller_claim'))).toBe('held_by_other');
    expect(claimStanding({ subject: JOB, binding: 'partner_job' }, of('stock_plan', 'caller_claim'))).toBe('held_by_other');
    expect(claimStanding({ subject: JOB, binding: 'caller_claim' }, { ...JOB, binding: 'partner_job' })).toBe('own');
    expect(claimStanding({ subject: JOB, binding: 'caller_claim' }, null)).toBe('free');
  });

  it('bands: slippage either way rounded inward, a ceiling for what a buy may spend, a deposit exactly', () => {
    expect(slippageBand(25_000_000n, 100)).toEqual({ min: 24_750_000n, max: 25_250_000n });
    expect(slippageBand(25_000_000n, 100, 25_000_000n)).toEqual({ min: 24_750_000n, max: 25_000_000n });
    expect(slippageBand(3n, 5000)).toEqual({ min: 2n, max: 4n });
    expect(slippageBand(7n, 0)).toEqual({ min: 7n, max: 7n });
    expect(exactBand(5n)).toEqual({ min: 5n, max: 5n });
  });
});

describe('a deposit judged for a Mode B job and for a raw status', () => {
  const terms = { receiver: WALLET, amountUnits: 12_500_000n };

  it("proves a job: every check passes, in the rule's order", () => {
    const judged = judgeDeposit(deposit(), terms, claim());
    expect(judged.proven).toBe(true);
    expect(names(judged.checks)).toEqual([
      'mined_after_first_sight:true',
      'not_proof_of_other_subject:true',
      'tx_succeeded:true',
      'sent_to_vault:true',
      'vault_deposit_event:true',
      'credits_receiver:true',
      'amount_within_band:true',
    ]);
  });

  it("another job's earlier deposit of the same amount does not prove this one", () => {
    const judged = judgeDeposit(deposit({ blockTimestamp: CREATED_SECOND - 30 }), terms, claim());
    expect(judged).toMatchObject({ proven: false, failed: 'mined_after_first_sight' });
    const held = judgeDeposit(deposit(), terms, claim({ holder: { lane: 'vault_deposit_job', id: 'bvd_1', binding: 'partner_job' } }));
    expect(held).toMatchObject({ proven: false, failed: 'not_proof_of_other_subject' });
    const stock = judgeDeposit(deposit(), terms, claim({ holder: { lane: 'stock_plan', id: 'srcpt_1', binding: 'caller_claim' } }));
    expect(stock).toMatchObject({ proven: false, failed: 'not_proof_of_other_subject' });
  });

  it('names the fact that fails: reverted, sent elsewhere, no event, another receiver, another amount', () => {
    const failed = (facts: Partial<DepositFacts>, t = terms) => {
      const judged = judgeDeposit(deposit(facts), t, claim());
      return judged.proven ? 'proven' : judged.failed;
    };
    expect(failed({ success: false, events: [] })).toBe('tx_succeeded');
    expect(failed({ toIsVault: false })).toBe('sent_to_vault');
    expect(failed({ events: [] })).toBe('vault_deposit_event');
    expect(failed({ events: [{ receiver: '0x00000000000000000000000000000000000000B8', assets: 12_500_000n }] })).toBe('credits_receiver');
    expect(failed({ events: [{ receiver: WALLET, assets: 12_499_999n }] })).toBe('amount_within_band');
    expect(failed({ events: [{ receiver: WALLET, assets: 12_500_001n }] })).toBe('amount_within_band');
  });

  it('a raw status runs the facts only; without an amount the amount is not a check', () => {
    const judged = judgeDeposit(deposit({ blockTimestamp: null }), { receiver: WALLET }, null);
    expect(judged.proven).toBe(true);
    expect(names(judged.checks)).toEqual(['tx_succeeded:true', 'sent_to_vault:true', 'vault_deposit_event:true', 'credits_receiver:true']);
  });
});
