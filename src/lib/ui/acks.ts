/**
 * What the two vault deposit acknowledgments say, written out for the depositor. The
 * version strings (the texts whose keccak256 the vault pins on chain) identify them; these
 * sentences are what ticking each box means.
 */
export const VAULT_ACK_WORDS: Record<'risk' | 'jurisdiction', { title: string; text: string }> = {
  risk: {
    title: 'Depositor risk',
    text: 'I understand that this vault holds tokenized stock and ETF exposure on chain 4663 whose value can fall, that my deposit is not insured and may lose value, that I sign and send every transaction from my own wallet, and that nothing here is investment advice.',
  },
  jurisdiction: {
    title: 'Sources and where I live',
    text: "I have read where the vault's addresses, prices and terms come from (its published sources), and I confirm that I am allowed to use this vault where I live.",
  },
};

/** The two acknowledgments of a stock intent, written out: ticking a box means this. */
export const STOCK_ACK_WORDS = {
  exposure:
    'I understand that a tokenized stock or ETF gives me economic exposure to it on chain 4663, not direct ownership of the share, and that its price can differ from the exchange price.',
  partner:
    "I understand that the partner's agent carries out this trade, not this service; this page only prepares the command and never places an order.",
} as const;
