/**
 * The words of this service, in plain language: the /glossary page lists them and `<Term>`
 * explains one in place, wherever the interface shows it. One entry per word; `id` is its
 * anchor on the glossary page.
 */
export interface GlossaryEntry {
  id: string;
  word: string;
  /** One or two sentences, shown in place. */
  short: string;
  /** More, on the glossary page only. */
  more?: string;
}

export const GLOSSARY: readonly GlossaryEntry[] = [
  {
    id: 'coil',
    word: 'Coil',
    short:
      'A basket of tokenized stocks and ETFs with a weight for each, its risk rules and a memo: a plan written down, not an investment.',
    more: 'A Coil is identified by its manifest hash, so the same basket always has the same address. It never places an order.',
  },
  {
    id: 'thesis',
    word: 'Thesis',
    short: 'Your idea in your own words ("AI chips, some defensive index exposure"); the strategist reads it and proposes a Coil.',
  },
  {
    id: 'strategist',
    word: 'Strategist',
    short:
      "What turns a thesis into a Coil: the partner's agent when it is connected, else a local strategist that reads your words by rules.",
  },
  {
    id: 'canonical',
    word: 'Canonical',
    short:
      "On this service's fixed list of token addresses on chain 4663 (the registry). A token at any other address is not canonical, even with the same ticker.",
  },
  {
    id: 'registry',
    word: 'Registry',
    short: 'The fixed list of the 15 tokenized stocks and ETFs, USDG and WETH that this service knows on chain 4663, with their addresses.',
  },
  {
    id: 'tokenized-stock',
    word: 'Tokenized stock',
    short: 'A token on chain 4663 whose price follows a stock or ETF. Holding it gives economic exposure, not ownership of the share.',
  },
  {
    id: 'usdg',
    word: 'USDG',
    short: 'A US-dollar stablecoin on chain 4663 (1 USDG is meant to be worth 1 USD); plans and deposits are in USDG.',
  },
  {
    id: 'chain-4663',
    word: 'Chain 4663',
    short: 'The blockchain (chain id 4663) where the tokens, the vaults and the trades live. Your wallet signs transactions there.',
  },
  {
    id: 'bps',
    word: 'bps (basis points)',
    short: 'Hundredths of a percent: 100 bps is 1 %, 10000 bps is 100 %. Weights and slippage are written in bps.',
  },
  {
    id: 'weight',
    word: 'Weight',
    short: "An asset's share of the basket, in bps; all the weights of a Coil add up to exactly 10000 bps (100 %).",
  },
  {
    id: 'slippage',
    word: 'Slippage',
    short:
      'How far the price may move against you between the plan and the trade; past it, the trade should not happen. At most 500 bps (5 %).',
  },
  {
    id: 'notional',
    word: 'Notional cap',
    short:
      'The largest amount, in US dollars, that one stock-token plan may spend on this deployment. A larger plan is refused, never reduced.',
  },
  {
    id: 'drift',
    word: 'Drift',
    short:
      "How far an asset's current weight has moved from its target weight. Past the Coil's threshold, a rebalance is proposed for you to confirm.",
  },
  {
    id: 'fuses',
    word: 'Fuses',
    short:
      'Safety limits a Coil or an agent runs under (a turnover cap, a stop on stale prices, ...). A fuse can make a rule stricter, never looser.',
  },
  {
    id: 'capsule',
    word: 'Capsule',
    short:
      "A Coil compiled for a broker's agent: the assets, the limits and the fuses in one sealed file, with a hash. It carries instructions; it sends nothing.",
  },
  {
    id: 'paper-mode',
    word: 'Paper, preview, human confirm, agentic',
    short:
      'How far a compiled capsule may go: paper and preview only describe; human confirm needs you to approve each order; agentic lets your own agent act within the fuses. This service itself never executes.',
  },
  {
    id: 'manifest-hash',
    word: 'Manifest hash',
    short: "The fingerprint (SHA-256) of a Coil's exact content; it is the Coil's permanent address.",
  },
  {
    id: 'receipt',
    word: 'Receipt',
    short:
      'A fingerprint of what was checked or issued, with its hashes, that anyone can recompute to verify. It is not an on-chain record.',
  },
  {
    id: 'plan-hash',
    word: 'Plan hash',
    short:
      'The fingerprint of one stock-token plan (the exact trade and the time it was prepared). Handing a plan over needs this hash confirmed.',
  },
  {
    id: 'proof-binding',
    word: 'Bound and unbound proof',
    short:
      "How a trade on chain is tied to a stock plan. Bound: the trade was sent by the plan's known trader (the wallet you signed in with, or the one the partner's job reports), or the partner's job names it. Unbound: it only matches the plan's token, amount and time, and is not tied to who traded.",
    more: "When a plan has a known trader, only their trade (or one the partner names) proves it: a stranger's matching trade proves nothing for it. A bound proof takes a trade from an unbound one on another plan, never the other way round, and a proof the partner's job named is never replaced by an unbound one. Sign in before preparing a plan to make its proof bound to your wallet.",
  },
  {
    id: 'receipt-status',
    word: 'Stock receipt status',
    short:
      "Where a stock plan stands, moved only by proof: prepared; job_pending, job_processing, job_completed_unconfirmed (the partner's word, not a trade), job_failed, job_cancelled; onchain_confirmed or onchain_reverted (a chain 4663 transaction that is this plan's trade).",
    more: 'There is no "filled" state. onchain_confirmed says whether its proof is bound to who traded or only matches the plan by token, amount and time.',
  },
  {
    id: 'command-pack',
    word: 'Command pack',
    short:
      'The same trade written three ways for the partner: a post to @partnerbot, a command line, and an agent API request. You hand it over; this service does not.',
  },
  {
    id: 'partner',
    word: 'Partner',
    short:
      'The external trading agent (@partnerbot) that can carry out a stock-token trade from your own partner account. It, not this service, runs the trade.',
  },
  {
    id: 'broker',
    word: 'broker',
    short: 'The venue named at the end of every command ("on broker"): where the partner is asked to trade on chain 4663.',
  },
  {
    id: 'broker-chain',
    word: 'broker_chain',
    short: 'The name some answers use for chain 4663, the chain of the broker venue.',
  },
  {
    id: 'calldata',
    word: 'Calldata',
    short:
      'The data of a transaction that tells a contract what to do (for example "deposit 100 USDG"). Your wallet shows it before you sign.',
  },
  {
    id: 'vault',
    word: 'Vault',
    short:
      'A contract on chain 4663 that holds USDG deposits and the tokens bought with them, by published rules. You deposit from your own wallet.',
  },
  {
    id: 'rail-a',
    word: 'Rail A',
    short:
      'Depositing USDG into the vault this service prepares deposits for (the V1 vault), from your own wallet. Rail B is a stock-token trade through the partner; Rail C is a broker wallet outside this service, which it has no tools for.',
  },
  {
    id: 'mode-a',
    word: 'Mode A, B, C',
    short:
      "Three ways to make a vault deposit. Mode A: a deposit pack (the calldata you sign) with a command you can post to @partnerbot; a social command proves nothing by itself, so Mode C is always offered beside it. Mode B: the operator's own partner wallet deposits, only where the operator switched it on; never a path for your deposit. Mode C: this app's deposit page, where you sign the approval and the deposit in your own wallet; it always works.",
  },
  {
    id: 'siwe',
    word: 'Sign in with Ethereum',
    short:
      'Signing a short message in your wallet to prove you hold its address. It costs nothing and moves nothing; it lets this service save your Coils to your wallet.',
  },
  {
    id: 'x402',
    word: 'x402',
    short: 'A way to pay for one answer with a signed USDG authorization: no account, and nothing is charged for an answer you do not get.',
  },
  {
    id: 'facilitator',
    word: 'Facilitator',
    short: 'The outside service that settles an x402 payment on chain once the answer is ready.',
  },
  {
    id: 'health',
    word: 'Health',
    short:
      "A 0 to 100 score of a Coil's structure and readiness (valid, canonical, diversified, documented). It says nothing about returns.",
  },
  {
    id: 'fork',
    word: 'Fork',
    short: 'A new Coil made from another one with changed weights or name; it keeps a link to its parent (its lineage).',
  },
];

export const GLOSSARY_BY_ID: ReadonlyMap<string, GlossaryEntry> = new Map(GLOSSARY.map((e) => [e.id, e]));
