/**
 * The ABI fragments the vault rail encodes and reads. Each fragment says where its shape
 * comes from: the operator's published interfaces and SDK, or, where the operator has not
 * published a read (V2 MODE, limiting fuse, stage counts, timelock queue), the interface this
 * service expects, which the V2 status labels as such.
 */
import { parseAbi, parseAbiItem } from 'viem';

/** ERC-20 approve: the pack's first call. */
export const ERC20_APPROVE_ABI = parseAbi(['function approve(address spender, uint256 amount) returns (bool)']);

/** The V1 vault (published interface): ack-gated deposit, the ERC-4626 Deposit event, gate views. */
export const V1_VAULT_ABI = parseAbi([
  'function depositWithAcks(uint256 assets, address receiver, bytes32 riskAckHash, bytes32 jurisdictionAckHash) returns (uint256 shares)',
  'function redeem(uint256 shares, address receiver, address owner) returns (uint256 assets)',
  'function acceptingPublicDeposits() view returns (bool)',
  'function paused() view returns (bool)',
  'function totalAssets() view returns (uint256)',
  'event Deposit(address indexed sender, address indexed receiver, uint256 assets, uint256 shares)',
]);

/** The pinned ack hashes as view functions on the vault itself (the reference vault's shape). */
export const VAULT_ACK_VIEWS_ABI = parseAbi([
  'function requiredRiskAckHash() view returns (bytes32)',
  'function requiredJurisdictionAckHash() view returns (bytes32)',
]);

/** The access policy of the operator's published interface, which keeps each vault's ack hashes. */
export const ACCESS_POLICY_ABI = parseAbi([
  'struct VaultPolicy { bool usPersonsRestricted; bytes32 requiredRiskAckHash; bytes32 requiredJurisdictionAckHash; bool exists; }',
  'function getVaultPolicy(address vault) view returns (VaultPolicy)',
]);

/** The deposit-readiness registry (published interface). */
export const DEPOSIT_READINESS_ABI = parseAbi([
  'struct DepositReadiness { bool candidate; bool depositTermsReady; bool auditReady; bool blocked; }',
  'function getDepositReadiness(address vault) view returns (DepositReadiness)',
  'function isDepositReady(address vault) view returns (bool)',
]);

export const DEPOSIT_EVENT = parseAbiItem(
  'event Deposit(address indexed sender, address indexed receiver, uint256 assets, uint256 shares)',
);

/** V2 vault: published views, plus the timelock queue (expected interface). */
export const V2_VAULT_ABI = parseAbi([
  'function paused() view returns (bool)',
  'function queueActive() view returns (bool)',
  'function totalAssets() view returns (uint256)',
  'function totalSupply() view returns (uint256)',
  'function usdgCash() view returns (uint256)',
  'function heldAssetCount() view returns (uint256)',
  'function heldAssets(uint256 index) view returns (address)',
  'function pricePerShare() view returns (uint256 pps, uint8 agg)',
  'function pendingRedeemCount() view returns (uint256)',
  'function pendingTimelockOps() view returns (bytes32[] ids, string[] labels, uint64[] etas)',
]);

export const V2_QUEUE_ABI = parseAbi([
  'function paused() view returns (bool)',
  'function pendingCount() view returns (uint256)',
  'function pendingDepositUsdg() view returns (uint256)',
  'function pendingRedemptionShares() view returns (uint256)',
]);

export const V2_SETTLER_ABI = parseAbi([
  'function settlementActive() view returns (bool)',
  'function keeperActive() view returns (bool)',
  'function rebalanceActive() view returns (bool)',
]);

export const V2_LIVENESS_ABI = parseAbi([
  'function liveness() view returns (uint8 state, bool executionAllowed, bool displayAllowed, uint256 observedChainId, uint256 ageSeconds, uint256 producedBlocks, string reason)',
]);

export const V2_PRICE_MESH_ABI = parseAbi([
  'function maxSafeBuyNotionalUsdg(address token) view returns (bool known, uint256 notionalUsdg, uint8 zeroReason)',
  'function maxSafeSellNotionalUsdg(address token) view returns (bool known, uint256 notionalUsdg, uint8 zeroReason)',
]);

/** Expected interface (not published by the operator). */
export const V2_RISK_POLICY_ABI = parseAbi([
  'function executionMode(address token) view returns (uint8)',
  'function limitingFuse(address token, uint8 side) view returns (uint8)',
]);

/** Expected interface (not published by the operator). */
export const V2_RECEIPT_REGISTRY_ABI = parseAbi(['function receiptCountByStage(uint8 stage) view returns (uint256)']);

/** Expected interface (not published by the operator). */
export const V2_ASSET_REGISTRY_ABI = parseAbi(['function isEnabled(address token) view returns (bool)']);
