/** Helpers the tools and strategist routers share. */
import { scoreCoil } from '../../coil/health';
import type { Coil } from '../../coil/manifest';
import type { ServiceConfig } from '../../config';
import { saveCoilWithReceipt } from '../../db/coil-repository';
import type { ErrorIssue } from '../../errors';
import type { Receipt } from '../../receipts/receipt';
import type { StrategistConfig } from '../../strategist';
import type { RequestContext } from '../context';

export function strategistConfigOf(config: ServiceConfig): StrategistConfig {
  return {
    strategistProvider: config.strategistProvider,
    partner: { apiUrl: config.partner.apiUrl, apiKey: config.partner.apiKey, timeoutMs: config.partner.timeoutMs },
  };
}

/** A missing or non-string prompt is `PROMPT_REQUIRED`; an over-long one `PROMPT_TOO_LONG`. */
export function promptErrorCode(issue?: ErrorIssue): string {
  return issue?.code === 'TOO_BIG' ? 'PROMPT_TOO_LONG' : 'PROMPT_REQUIRED';
}

/**
 * Saves a Coil and its receipt under the caller's wallet when signed in (else under no
 * wallet: the store still keeps them for lineage, provenance and passports).
 */
export async function persistReceipt(ctx: RequestContext, coil: Coil, receipt: Receipt, agentId: string | null = null): Promise<void> {
  const owner = (await ctx.getSession())?.address ?? null;
  await saveCoilWithReceipt({ coil, manifestHash: receipt.manifestHash, ownerAddress: owner, agentId, score: scoreCoil(coil).total, storedAt: ctx.serverTime, receipt });
}
