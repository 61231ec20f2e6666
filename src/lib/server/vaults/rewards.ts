/**
 * Provider rewards planning: a fee amount split over the published reward cohorts (the split
 * legs) and the provider leg's scoring components, deterministically, in integer USDG
 * 6-decimal units. A plan is data: planned is not funded is not claimable, and every leg
 * says where it stands. No cohort has a deployed recipient here, so nothing can move.
 *
 * Remainder rule (REWARD_SPLIT.remainderRule): every leg is floor(amount × bps / 10000); the
 * treasury leg takes what the floors leave, so the legs sum exactly to the amount. Inside
 * the provider leg, each component is floored the same way and what is left rolls over to
 * the next provider epoch (never to a group, never to the treasury).
 */
import { SvcError } from '../errors';
import { buildArtifactReceipt } from '../receipts/artifact';
import { formatUsdgUnits } from './amount';
import { MAX_USDG_UNITS } from './fees';

export const REWARD_SPLIT = {
  splitVersion: 'svc-reward-split-1.0.0',
  currency: 'USDG',
  legs: [
    { cohort: 'stakers', bps: 5000, description: 'stakers of the service token (reward injection)' },
    { cohort: 'depositors', bps: 3000, description: 'vault depositors, pro rata by share-seconds, vested' },
    { cohort: 'providers', bps: 1000, description: 'vault provider groups, facts-only scoring, vested' },
    { cohort: 'treasury', bps: 1000, description: 'the treasury; absorbs the floor-division remainder' },
  ],
  providerComponents: [
    { component: 'equal', bps: 4000, description: 'split equally among eligible provider groups' },
    { component: 'externalTvlDays', bps: 3000, description: 'external TVL × days, concave curve' },
    { component: 'retention', bps: 2000, description: 'external-capital cohort retention and depositor age' },
    {
      component: 'operational',
      bps: 1000,
      description: 'maintenance on time, receipt freshness, no fault pause, docs current, oracle health',
    },
  ],
  remainderRule:
    'Each leg is floor(amount × bps / 10000); the treasury leg takes the remainder so the legs sum exactly. Each provider component is floor(provider leg × bps / 10000); the provider remainder rolls over to the next provider epoch.',
  stateChain: 'planned → funded → vesting → claimable: a plan is the first state only',
} as const;

const units = (n: bigint) => ({ units: n.toString(), usdg: formatUsdgUnits(n) });

const LEG_STATE = { state: 'planned' as const, recipient: null, funded: false as const, claimable: false as const };

export interface RewardPlanInput {
  feeAmountUnits: string;
  epochId?: string;
  /** The receipt id of the fee claim the amount comes from, if any (recorded, not verified). */
  feeClaimReceiptId?: string;
}

/** Splits `amount` by basis points with floors; returns the parts and what the floors left. */
export function splitByBps(amount: bigint, bps: readonly number[]): { parts: bigint[]; remainder: bigint } {
  const parts = bps.map((b) => (amount * BigInt(b)) / 10_000n);
  return { parts, remainder: amount - parts.reduce((n, p) => n + p, 0n) };
}

export function planProviderRewards(input: RewardPlanInput, deps: { now: Date }) {
  const amount = BigInt(input.feeAmountUnits);
  if (amount > MAX_USDG_UNITS) {
    throw new SvcError('FEE_AMOUNT_ABOVE_MAX', `feeAmountUnits is above ${MAX_USDG_UNITS}`, {
      issues: [{ code: 'FEE_AMOUNT_ABOVE_MAX', message: 'too large', path: 'feeAmountUnits' }],
    });
  }
  const legSplit = splitByBps(
    amount,
    REWARD_SPLIT.legs.map((l) => l.bps),
  );
  const legs = REWARD_SPLIT.legs.map((leg, i) => {
    const absorbed = leg.cohort === 'treasury' ? legSplit.remainder : 0n;
    return {
      cohort: leg.cohort,
      bps: leg.bps,
      amount: units(legSplit.parts[i]! + absorbed),
      remainderAbsorbed: units(absorbed),
      ...LEG_STATE,
    };
  });
  const providerLeg = legSplit.parts[REWARD_SPLIT.legs.findIndex((l) => l.cohort === 'providers')]!;
  const componentSplit = splitByBps(
    providerLeg,
    REWARD_SPLIT.providerComponents.map((c) => c.bps),
  );
  // The rule's promise, checked rather than assumed.
  if (legs.reduce((n, l) => n + BigInt(l.amount.units), 0n) !== amount) throw new Error('reward legs do not sum to the fee amount');
  const plan = {
    splitVersion: REWARD_SPLIT.splitVersion,
    epochId: input.epochId ?? null,
    feeClaimReceiptId: input.feeClaimReceiptId ?? null,
    feeAmount: units(amount),
    amountSource: input.feeClaimReceiptId
      ? "a partner-reported fee claim: the partner's word, not verified here"
      : "the caller's amount: not verified here",
    legs,
    providerComponents: REWARD_SPLIT.providerComponents.map((c, i) => ({
      component: c.component,
      bps: c.bps,
      amount: units(componentSplit.parts[i]!),
    })),
    providerRollover: { ...units(componentSplit.remainder), to: 'the next provider epoch' as const },
    sumsExactly: true as const,
    remainderRule: REWARD_SPLIT.remainderRule,
    state: {
      planned: true as const,
      funded: false as const,
      claimable: false as const,
      meaning: 'Planned, not funded, not claimable: no leg has a deployed recipient here, so nothing can move against this plan.',
    },
  };
  return { plan, receipt: buildArtifactReceipt('provider_reward_plan', plan, deps.now) };
}
