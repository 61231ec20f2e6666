/** The long descriptions of the vault family's operations (see index.ts). */
export const VAULTS_DOCS: Readonly<Record<string, string>> = {
  'vaults.schema':
    'Embeds the architecture object (vault chain, x402 providers, brokerMcpUsedForVaultExecution / svcStoresBrokerCredentials / svcPlacesOrders all false).',
  'vaults.readiness':
    'A strict AND of acceptingPublicDeposits(), the deposit-readiness registry, live pricing (totalAssets()) and not paused. Anything unknown closes the gate (state UNKNOWN); it is never reported open without the reads.',
  'vaults.v2Status':
    'Reads the V2 suite on every call (chain id first): stage ladder, MODE, lane states, immediateDepositCapacityUsdg, immediateUsdgRedemptionCapacityUsdg, the limiting fuse per side, timelock ETAs, liveness, keeper and queue state. Every value is a reading: `live` with its source call, or `unknown` with the reason. A failed or absent read is never a number, never zero and never live. Rebalancing is inactive by owner policy (stated reason), never a fault.',
  'vaults.depositLink':
    'With both `amount` and `receiver` the answer also carries a full Mode A pack (the same validation and ack verification as prepare-command).',
  'vaults.depositAccount':
    'Reads the USDG token on chain 4663 at every call (chain id first): balanceOf(owner) and allowance(owner, vault). A read that fails is `unknown` with the reason, never 0. `checkedAt` is the server clock of the read.',
  'vaults.figures':
    "Reads the vault on chain 4663 at every call (chain id first): totalAssets(), totalSupply() and decimals(). The share price is totalAssets / totalSupply at the shares' decimals, rounded down; a read that fails, or a vault with no shares, makes it `unknown` with the reason, never 0. `depositPreview.available` is false: neither vault's interface has a preview function (previewDeposit, convertToShares), so no share count is promised before a deposit. Any registered vault (V1 or V2); an unknown slug answers 404 VAULT_UNKNOWN.",
  'vaults.approvalStatus':
    "Re-reads the chain at every call (chain id first, then the receipt). `confirmedApproval` is true exactly when a confirmed transaction to the USDG token emitted the token's Approval event letting the vault spend at least `amount` of the owner's USDG. Pending, reverted, sent elsewhere or too small: false, with the reason.",
  'vaults.depositIntent':
    'Validates like prepare-command, then reads the public deposit gate live; a closed or unknown gate answers 409 DEPOSIT_GATE_CLOSED with the failing checks.',
  'vaults.compileRebalancePolicy':
    'An invalid manifest answers 422 VAULT_MANIFEST_INVALID. The chunked-rebalance lane is inactive by owner policy.',
  'vaults.receipt':
    'Give exactly one of `manifest`, `pack` or `txHash`. A transaction receipt reaches stage SETTLEMENT (status onchain_confirmed) only when the chain proves the vault deposit; otherwise it stays at PREPARATION (onchain_reverted or unverified). Receipts are paper: not anchored on chain.',
};
