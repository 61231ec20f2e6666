/**
 * The USDG vault rail (interface 2.10 to 2.12, 3.2, 3.3, 4.6, 4.7): the domain functions the REST
 * routes, the typed client and the MCP vault tools all call.
 */
export * from './registry';
export { parseUsdgAmount, formatUsdgUnits, MAX_PACK_AMOUNT_USDG, USDG_DECIMALS } from './amount';
export { createRpcChainReader, checkChain, type ChainReader } from './chain';
export { verifyAckPins, recomputeAckHashes, type AckVerification } from './acks';
export {
  buildDepositPack,
  composeDepositPack,
  computePlanHash,
  describeModes,
  depositLinkUrl,
  validatePackRequest,
  PACK_VERSION,
  type DepositPack,
  type DepositPackDeps,
  type DepositPackRequest,
  type DepositPackResult,
  type ModeBConfig,
} from './deposit-pack';
export { verifyVaultDeposit, type DepositVerification } from './completion';
export { evaluateDepositGate, type DepositGate } from './deposit-gate';
export { readVaultV2Status, type VaultV2Status } from './v2-status';
export { buildVaultSchema } from './schema';
export { vaultAssetRegistry } from './asset-registry';
export { createVaultManifest, validateVaultManifest, vaultManifestHash, type VaultManifest } from './manifest';
export { compileRebalancePolicy } from './rebalance-policy';
export { createDepositIntent, createWithdrawIntent } from './intents';
export { manifestReceipt, packReceipt, settlementReceipt } from './receipts';
export { submitModeBIntent, modeBJobStatus, reconcileDepositTx, type ModeBSettings, type VaultDepositJobStore } from './mode-b';
