/**
 * The vault deposit pack (interface 2.10), field by field, and the three deposit modes (4.6).
 *
 * A pack is calldata the depositor signs in their own wallet: `approve(vault, units)` on
 * USDG, then `depositWithAcks(units, receiver, riskAck, jurisdictionAck)` on the vault. The
 * service never signs, never sends and never holds anything (`svcExecutesDeposit: false`).
 * Inputs are rejected, never clamped, each with its own code.
 */
import { hashCanonical } from '../canonical';
import { encodeFunctionData, getAddress, isAddress, type Address } from 'viem';
import { SvcError } from '../errors';
import { BROKER_CHAIN_ID } from '../registry';
import { ERC20_APPROVE_ABI, V1_VAULT_ABI } from './abi';
import { verifyAckPins, type AckVerification } from './acks';
import { MAX_PACK_AMOUNT_USDG, parseUsdgAmount, USDG_DECIMALS } from './amount';
import type { ChainReader } from './chain';
import { ACK_HASHES, resolveRailAVault, VAULT_REGISTRY_VERSION, type RailAVault } from './registry';
import type { z } from 'zod';
import type { packShape } from './pack-shapes';
import { closedModeBGates, MODE_B_GATES, type ModeBConfig } from './mode-b-gates';

export const PACK_VERSION = 'partnerbot-vault-deposit-1.0.0';
export const DEFAULT_PACK_LIFETIME_SECONDS = 900;
export const MIN_PACK_LIFETIME_SECONDS = 60;
export const MAX_PACK_LIFETIME_SECONDS = 86_400;

const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000';

function reject(code: string, message: string, path: string): never {
  throw new SvcError(code, message, { issues: [{ code, message, path }] });
}

/**
 * The receiver must be the depositor's own address. Codes: RECEIVER_MALFORMED (not a
 * 20-byte hex address, or a mixed-case address with a wrong EIP-55 checksum, which signals a
 * typo), RECEIVER_ZERO_ADDRESS, RECEIVER_IS_VAULT, RECEIVER_IS_USDG_TOKEN.
 */
export function validateReceiver(value: unknown, vault: RailAVault, path = 'receiver'): Address {
  if (typeof value !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(value)) {
    reject('RECEIVER_MALFORMED', 'The receiver must be a 20-byte hex address (0x followed by 40 hex digits)', path);
  }
  if (!isAddress(value, { strict: true })) {
    reject(
      'RECEIVER_MALFORMED',
      'The receiver has mixed case with a wrong EIP-55 checksum (a typo?); give it checksummed or all lowercase',
      path,
    );
  }
  const address = getAddress(value);
  if (address === ZERO_ADDRESS)
    reject('RECEIVER_ZERO_ADDRESS', 'The receiver cannot be the zero address: shares minted to it are lost', path);
  if (address === vault.address || address === vault.implementationAddress) {
    reject('RECEIVER_IS_VAULT', 'The receiver cannot be the vault itself: the receiver must be the depositor', path);
  }
  if (address === vault.assetAddress)
    reject('RECEIVER_IS_USDG_TOKEN', 'The receiver cannot be the USDG token contract: the receiver must be the depositor', path);
  return address;
}

/** Pack lifetime in seconds; EXPIRY_OUT_OF_BOUNDS outside [60, 86400] or not an integer. */
export function validateLifetime(value: unknown, path = 'expiresInSeconds'): number {
  if (value === undefined) return DEFAULT_PACK_LIFETIME_SECONDS;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < MIN_PACK_LIFETIME_SECONDS || value > MAX_PACK_LIFETIME_SECONDS) {
    reject(
      'EXPIRY_OUT_OF_BOUNDS',
      `expiresInSeconds must be an integer from ${MIN_PACK_LIFETIME_SECONDS} to ${MAX_PACK_LIFETIME_SECONDS} (default ${DEFAULT_PACK_LIFETIME_SECONDS})`,
      path,
    );
  }
  return value;
}

export type DepositPack = z.infer<typeof packShape>;

/**
 * `0x` + sha256 hex of the canonical JSON of the pack without its own hash (`0x`-prefixed like
 * every other hex field of the pack).
 */
export function computePlanHash(pack: Omit<DepositPack, 'planHash'> | DepositPack): string {
  const { planHash: _omit, ...content } = pack as DepositPack;
  return `0x${hashCanonical(content)}`;
}

/**
 * A plan hash as a caller may give it: packs built before the hash carried `0x` wrote bare
 * hex, which is still accepted (case-insensitive) and read as the `0x` form.
 */
export function normalizePlanHash(value: string): string {
  return /^[0-9a-fA-F]{64}$/.test(value) ? `0x${value.toLowerCase()}` : /^0x[0-9a-fA-F]{64}$/.test(value) ? value.toLowerCase() : value;
}

/** The app's deposit widget for the vault (Mode C), with the amount (and receiver) prefilled. */
export function depositLinkUrl(appOrigin: string, vault: RailAVault, amount?: string, receiver?: string): string {
  const url = new URL(`/vaults/${encodeURIComponent(vault.slug)}/deposit`, appOrigin);
  if (amount !== undefined) url.searchParams.set('amount', amount);
  if (receiver !== undefined) url.searchParams.set('receiver', receiver);
  return url.toString();
}

export function partnerbotSocialCommand(vault: RailAVault, amount: string, units: bigint, receiver: Address): string {
  return (
    `@partnerbot approve ${amount} USDG to vault ${vault.address}, then call depositWithAcks(${units}, ${receiver}, ` +
    `${ACK_HASHES.risk}, ${ACK_HASHES.jurisdiction}) on that vault from wallet ${receiver}, on broker`
  );
}

export interface ComposeInput {
  vault: RailAVault;
  amount: string;
  units: bigint;
  receiver: Address;
  lifetimeSeconds: number;
  generatedAt: Date;
  appOrigin: string;
}

/** Builds the pack from validated inputs. Pure: the same inputs give the same pack and planHash. */
export function composeDepositPack(input: ComposeInput): DepositPack {
  const { vault, amount, units, receiver } = input;
  const content: Omit<DepositPack, 'planHash'> = {
    packVersion: PACK_VERSION,
    mode: 'A',
    vaultSlug: vault.slug,
    vaultAddress: vault.address,
    vaultRegistryVersion: VAULT_REGISTRY_VERSION,
    chain: vault.chain,
    chainId: BROKER_CHAIN_ID,
    asset: 'USDG',
    assetAddress: vault.assetAddress,
    assetDecimals: USDG_DECIMALS as 6,
    amount,
    amountUnits: units.toString(),
    maxAmount: MAX_PACK_AMOUNT_USDG,
    spender: vault.address,
    // The service does not read the depositor's allowance, so the approval is always part of
    // the pack; approving exactly the amount is harmless if one already exists.
    approvalRequired: true,
    approveCalldata: encodeFunctionData({ abi: ERC20_APPROVE_ABI, functionName: 'approve', args: [vault.address, units] }),
    depositFunction: vault.depositFunction,
    depositCalldata: encodeFunctionData({
      abi: V1_VAULT_ABI,
      functionName: 'depositWithAcks',
      args: [units, receiver, ACK_HASHES.risk, ACK_HASHES.jurisdiction],
    }),
    receiver,
    receiverMustBeDepositor: true,
    ackHashes: { risk: ACK_HASHES.risk, jurisdiction: ACK_HASHES.jurisdiction },
    generatedAt: input.generatedAt.toISOString(),
    expiresAt: new Date(input.generatedAt.getTime() + input.lifetimeSeconds * 1000).toISOString(),
    svcExecutesDeposit: false,
    partnerbotSocialCommand: partnerbotSocialCommand(vault, amount, units, receiver),
    depositLinkUrl: depositLinkUrl(input.appOrigin, vault, amount, receiver),
  };
  return { ...content, planHash: computePlanHash(content) };
}

export type { ModeBConfig };

export function describeModes(pack: DepositPack, modeB: ModeBConfig | undefined) {
  const gatesOpen = modeB !== undefined && closedModeBGates(modeB).length === 0;
  return {
    A: {
      mode: 'A' as const,
      title: 'Command pack plus a social command',
      available: true as const,
      executionVerifiable: false as const,
      socialCommand: pack.partnerbotSocialCommand,
      note: 'A deposit made from a social command is unverified until GET /api/partnerbot/vault-deposit/status/<txHash> answers complete: true. Mode C is always offered alongside.',
    },
    B: {
      mode: 'B' as const,
      title: "Operator partner-wallet submission (the operator's own wallet only)",
      available: gatesOpen,
      userDepositPath: false as const,
      route: 'POST /api/partnerbot/vault-deposit/submit-intent',
      gates: [...MODE_B_GATES.map((g) => (g.stage === 'receiver' ? `receiver equals ${g.setting}` : g.setting)), 'exact confirmPlanHash'],
      note: modeB
        ? gatesOpen
          ? "Mode B is configured for the operator's own partner wallet only; it is never a path for a user's deposit."
          : 'Mode B is not available: at least one of its configuration gates is closed. It is never a path for a user deposit.'
        : 'Mode B gates were not evaluated here. It is never a path for a user deposit.',
    },
    C: {
      mode: 'C' as const,
      title: "The app's deposit widget with the amount prefilled",
      available: true as const,
      recommended: true as const,
      depositLinkUrl: pack.depositLinkUrl,
      note: 'Always available and the recommended fallback: you sign the approval and the deposit in your own wallet.',
    },
  };
}

export type DepositModes = ReturnType<typeof describeModes>;

export interface DepositPackRequest {
  vaultId?: string;
  amountUsdg: unknown;
  receiver: unknown;
  expiresInSeconds?: unknown;
}

export interface DepositPackDeps {
  /** The pack's generatedAt. */
  now: Date;
  /** The public origin of the app (the deposit widget link). */
  appOrigin: string;
  /** A chain reader when BROKER_CHAIN_RPC_URL is configured, else null. */
  chain: ChainReader | null;
  modeB?: ModeBConfig;
}

export interface DepositPackResult {
  pack: DepositPack;
  ackVerification: AckVerification;
  partnerbotSocialCommand: string;
  depositLinkUrl: string;
  modes: DepositModes;
  svcExecutesDeposit: false;
}

/** Validates the request and the inputs, in the order a caller fixes them. */
export function validatePackRequest(request: DepositPackRequest) {
  const vault = resolveRailAVault(request.vaultId);
  const { amount, units } = parseUsdgAmount(request.amountUsdg);
  const receiver = validateReceiver(request.receiver, vault);
  const lifetimeSeconds = validateLifetime(request.expiresInSeconds);
  return { vault, amount, units, receiver, lifetimeSeconds };
}

/**
 * Builds a Mode A deposit pack: validates every input (rejecting, never clamping), verifies
 * the ack hashes against the vault's pins (on chain when a reader is given), composes the
 * pack and its planHash, and describes the three modes. The same function serves the REST
 * routes, the MCP tools and the paid x402 service.
 */
export async function buildDepositPack(request: DepositPackRequest, deps: DepositPackDeps): Promise<DepositPackResult> {
  const v = validatePackRequest(request);
  const ackVerification = await verifyAckPins(v.vault, deps.chain, deps.now);
  const pack = composeDepositPack({ ...v, generatedAt: deps.now, appOrigin: deps.appOrigin });
  return {
    pack,
    ackVerification,
    partnerbotSocialCommand: pack.partnerbotSocialCommand,
    depositLinkUrl: pack.depositLinkUrl,
    modes: describeModes(pack, deps.modeB),
    svcExecutesDeposit: false as const,
  };
}

/**
 * The partnerbot deposit command alone (Mode A's social command) for a validated request,
 * with Mode C beside it: the same validation and ack-pin check as the pack, without the
 * calldata. A deposit made from the command is unverified until the chain proves it.
 */
export async function buildDepositCommand(request: DepositPackRequest, deps: DepositPackDeps) {
  const { pack, ackVerification, modes } = await buildDepositPack(request, deps);
  return {
    command: {
      social: pack.partnerbotSocialCommand,
      venuePhrase: 'on broker' as const,
      executor: 'partner' as const,
      executionVerifiable: false as const,
    },
    vaultSlug: pack.vaultSlug,
    vaultAddress: pack.vaultAddress,
    amount: pack.amount,
    amountUnits: pack.amountUnits,
    receiver: pack.receiver,
    ackHashes: pack.ackHashes,
    planHash: pack.planHash,
    generatedAt: pack.generatedAt,
    expiresAt: pack.expiresAt,
    ackVerification,
    depositLinkUrl: pack.depositLinkUrl,
    modes,
    completionRoute: `GET /api/partnerbot/vault-deposit/status/{txHash}`,
    svcExecutesDeposit: false as const,
  };
}
