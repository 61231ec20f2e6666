/**
 * Phrase rules of the execution-claim guard, kept as data so that they can be reviewed and
 * extended without touching the scanner. A sentence is a claim when one of the claim
 * shapes matches and neither a negation nor a proof/hedge qualifier stands in the same
 * sentence. The corpus test (tests/unit/output-guard.test.ts) pins the behaviour.
 */

/** Who could be said to have executed something. */
export const EXECUTION_SUBJECTS: readonly string[] = [
  'the service',
  'this service',
  'our service',
  'svc',
  'we',
  'i',
  'the vault',
  'this vault',
  'your vault',
  'vault',
  'the agent',
  'your agent',
  'our agent',
  'this agent',
  'agent',
  'the partner',
  'partner',
  'partnerbot',
  'the partnerbot',
  'the trading agent',
  'the strategist',
  'the facilitator',
  'the bot',
  'the system',
  'the keeper',
  'the app',
  'the platform',
];

/** Past-tense execution verbs (the spec's list plus close synonyms). */
export const EXECUTION_VERBS: readonly string[] = [
  'placed',
  'filled',
  'executed',
  'traded',
  'bought',
  'sold',
  'swapped',
  'deposited',
  'withdrew',
  'withdrawn',
  'redeemed',
  'settled',
  'sent',
  'purchased',
  'transferred',
  'rebalanced',
];

/** Words that may stand between the subject and the verb without changing the claim. */
export const CLAIM_FILLERS: readonly string[] = [
  'has',
  'have',
  'had',
  'just',
  'successfully',
  'already',
  'now',
  'automatically',
  'also',
  'then',
  'instantly',
  'finally',
  'securely',
  'fully',
  'partially',
  'officially',
];

/** Things that, when said to have been executed in the passive, make a claim. */
export const EXECUTED_OBJECTS: readonly string[] = [
  'order',
  'orders',
  'trade',
  'trades',
  'swap',
  'swaps',
  'deposit',
  'deposits',
  'withdrawal',
  'withdrawals',
  'redemption',
  'redemptions',
  'purchase',
  'purchases',
  'sale',
  'position',
  'positions',
  'funds',
  'usdg',
  'shares',
  'payment',
  'transfer',
  'transaction',
  'rebalance',
  'settlement',
];

/** Passive auxiliaries between the object and the verb. */
export const PASSIVE_AUXILIARIES: readonly string[] = [
  'is',
  'are',
  'was',
  'were',
  'has been',
  'have been',
  'had been',
  'got',
  'has just been',
  'was just',
  'was successfully',
  'has been successfully',
  'were successfully',
];

/** Negations: a sentence that denies the execution is honest. */
export const NEGATIONS: readonly string[] = ['not', 'never', 'no', "n't", 'cannot', 'nothing', 'neither', 'nor', 'without', 'none'];

/**
 * Proof or hedge qualifiers. A claim backed by on-chain proof, explicitly marked
 * unconfirmed, or stated as a hypothetical is not an unproven execution claim.
 */
export const PROOF_QUALIFIERS: readonly RegExp[] = [
  /\bonchain_confirmed\b/i,
  /\bon[- ]?chain[- ]confirmed\b/i,
  /\bconfirmed on[- ]?chain\b/i,
  /\b0x[0-9a-f]{64}\b/i,
  /\btransaction hash\b/i,
  /\btx hash\b/i,
  /\bunconfirmed\b/i,
  /\bnot (?:yet )?(?:confirmed|verified|settled|proven)\b/i,
  /\bpending (?:on-?chain )?(?:proof|confirmation)\b/i,
];

/** Markers of a hypothetical or instruction, which describe rather than claim. */
export const HYPOTHETICAL_MARKERS: readonly string[] = [
  'if',
  'when',
  'whenever',
  'once',
  'after',
  'until',
  'unless',
  'whether',
  'would',
  'could',
  'should',
  'might',
  'may',
  'will',
  'before',
  'only',
];
