/**
 * The per-request wiring (chain reader, payment lane, Mode B settings, sighted packs) and the
 * answer pieces (chain blocks, source entries, the pack request and answer) shared by the vault
 * families' procedures: vaults, vault-rail, vault-analysis and partnerbot. Shapes of domain
 * types live beside the types (vaults/*.schema.ts, vaults/pack-shapes.ts).
 */
import { z } from 'zod';
import type { ServiceConfig } from '../config';
import { brokerChainClient } from '../chain-client';
import { createRpcChainReader, type ChainReader } from '../vaults/chain';
import type { RequestClocks } from '../clock';
import { depositPackSightings } from '../db/vault-deposit-job-repository';
import { buildDepositPack, type DepositPackDeps, type DepositPackRequest, type DepositPackResult } from '../vaults/deposit-pack';
import { modeBConfigOf, type ModeBConfig } from '../vaults/mode-b-gates';
import { submittableUntil, type ModeBSettings } from '../vaults/mode-b';
import { depositVerificationSchema, observedDepositEventSchema } from '../vaults/completion';
import { depositGateSchema } from '../vaults/deposit-gate';
import { depositPackRequestShape, depositPackResultShape } from '../vaults/pack-shapes';
import { VAULT_REGISTRY_SOURCES } from '../vaults/registry';
import type { SourceVerification } from '../x402/constants';
import { chainBlockFields, chainBlocks, vaultServiceLaneOf } from '../x402/lanes';
import type { AckVerification } from '../vaults/acks';
import type { DepositVerification } from '../vaults/completion';
import { nowIsoField } from './init';

// ---------------------------------------------------------------------------------------
// Wiring

export function chainReaderFor(cfg: ServiceConfig): ChainReader | null {
  const client = brokerChainClient(cfg);
  return client ? createRpcChainReader(client) : null;
}

export function modeBSettingsFor(cfg: ServiceConfig): ModeBSettings {
  return {
    depositExecutionEnabled: cfg.partner.depositExecutionEnabled,
    ownerApprovedWalletDeposit: cfg.partner.ownerApprovedWalletDeposit,
    partnerApiKey: cfg.partner.apiKey,
    partnerApiUrl: cfg.partner.apiUrl,
    partnerWalletAddress: cfg.partner.walletAddress,
    partnerTimeoutMs: cfg.partner.timeoutMs,
  };
}

export function modeBConfigFor(cfg: ServiceConfig): ModeBConfig {
  return modeBConfigOf(modeBSettingsFor(cfg));
}

/**
 * What `buildDepositPack` needs besides the request: the request's clock, the public origin
 * (the widget link), the chain reader that verifies the ack pins on chain (null without
 * BROKER_CHAIN_RPC_URL) and the Mode B gates. The same for every route that builds a pack,
 * free or paid.
 */
export function depositPackDepsFor(cfg: ServiceConfig, now: Date): DepositPackDeps {
  return { now, appOrigin: cfg.origin, chain: chainReaderFor(cfg), modeB: modeBConfigFor(cfg) };
}

/**
 * A pack of the routes a Mode B submission starts from (prepare-command and its vault-pinned
 * twin), with this server's first sight of it stored: a Mode B submission's lifetime counts
 * from there, never from the pack's `generatedAt` (the caller's `nowIso`).
 */
export async function buildSightedDepositPack(
  request: DepositPackRequest,
  cfg: ServiceConfig,
  clocks: RequestClocks,
): Promise<DepositPackResult & { submittableUntil: string }> {
  const result = await buildDepositPack(request, depositPackDepsFor(cfg, clocks.answerTime));
  const firstSeenAt = await depositPackSightings.firstSight(result.pack.planHash, clocks.serverTime);
  return { ...result, submittableUntil: submittableUntil(result.pack, firstSeenAt).toISOString() };
}

/** The answer of a route that builds a sighted pack: the pack, with the chain blocks and where its ack pins were read. */
export async function sightedDepositPackAnswer(request: DepositPackRequest, ctx: RequestClocks & { config: ServiceConfig }) {
  const result = await buildSightedDepositPack(request, ctx.config, ctx);
  return { ...result, ...vaultChainBlocksFor(ctx.config, [ackSource(result.ackVerification)]) };
}

/**
 * `vaultChain`, `x402PaymentChain` and `sourceVerification` of a vault response: the x402
 * lane selection and block builders (the same as every x402 response), plus the vault
 * registry's sources and the route's own live reads.
 */
export function vaultChainBlocksFor(cfg: ServiceConfig, extra: readonly SourceVerification[] = []) {
  return chainBlocks(vaultServiceLaneOf(cfg.facilitator), [...VAULT_REGISTRY_SOURCES, ...extra]);
}

/** The source entry of a vault response that read the chain live (none when it did not). */
export function liveSource(subject: string, at: string, live: boolean): SourceVerification[] {
  return live ? [{ subject, source: 'eth_call on chain 4663 (chain id verified first)', lastVerified: at, method: 'live_chain_read' }] : [];
}

/** Where the ack-hash pins of a pack were read: the chain, or the registry's pinned copy. */
export function ackSource(ack: AckVerification): SourceVerification {
  return ack.chainRead
    ? {
        subject: 'vault ack-hash pins',
        source: `eth_call to ${ack.readAddress} on chain 4663 (${ack.readFrom})`,
        lastVerified: ack.checkedAt,
        method: 'live_chain_read',
      }
    : {
        subject: 'vault ack-hash pins',
        source: "the vault registry's pinned copy (no RPC configured; the chain was not read)",
        lastVerified: ack.checkedAt,
        method: 'registry_copy',
      };
}

/** The source entry of a deposit proof, when the chain id was verified. */
export function verificationSource(v: DepositVerification): SourceVerification[] {
  return v.chainIdVerified
    ? [
        {
          subject: 'deposit proof',
          source: 'eth_chainId then eth_getTransactionReceipt on chain 4663',
          lastVerified: v.checkedAt,
          method: 'live_chain_read',
        },
      ]
    : [];
}

// ---------------------------------------------------------------------------------------
// Shapes

/** The body of every route that builds a Mode A deposit pack. */
export const packRequestShape = {
  ...depositPackRequestShape.shape,
  nowIso: nowIsoField,
};

/** The answer of every route that builds a Mode A deposit pack. */
export const prepareOutputShape = {
  ...depositPackResultShape.shape,
  ...chainBlockFields,
};

/** This server's Mode B deadline of a pack, beside the pack (which its answer-time fields would not move). */
export const submittableUntilField = z
  .string()
  .describe(
    "The server's clock: a Mode B submission of this pack (POST /api/partnerbot/vault-deposit/submit-intent) is accepted until this instant, the pack's lifetime counted from this server's first sight of it. Not pack.expiresAt, which is answer time (nowIso) and part of the hashed pack.",
  );

/** The answer of the routes that build a pack a Mode B submission starts from (its first sight stored). */
export const sightedPrepareOutputShape = {
  ...prepareOutputShape,
  submittableUntil: submittableUntilField,
};

// The deposit pack's own request and result shapes live with the pack in the vaults domain
// (the paid x402 deposit-pack service uses them too); re-exported for the vault routers.
export {
  ackVerificationShape,
  addressShape,
  bytes32Shape,
  depositPackRequestShape,
  depositPackResultShape,
  hexShape,
  modesShape,
  packShape,
  vaultInputErrorCode,
} from '../vaults/pack-shapes';

/** Declared with the verification in the vaults domain. */
export const depositEventShape = observedDepositEventSchema;
export const verificationShape = depositVerificationSchema;

/** Declared with the gate in the vaults domain. */
export const gateShape = depositGateSchema;
