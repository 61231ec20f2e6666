import { z } from 'zod';
import { vaultAssetRegistry } from '../../../vaults/asset-registry';
import { nowIsoField, publicProcedure, rest, stampedOutput } from '../../init';
import { addressShape, vaultChainBlocksFor } from '../../vault-shapes';
import { chainBlockFields } from '../../../x402/lanes';

export const assetRegistryProcedure = publicProcedure
  .meta({
    family: 'vaults',
    openapi: rest('GET', '/vaults/asset-registry', 'Source-verified tokenized assets with oracle and jurisdiction policies'),
  })
  .input(z.object({ nowIso: nowIsoField }).optional())
  .output(
    stampedOutput({
      assetRegistryVersion: z.string(),
      registryVersion: z.string(),
      oraclePolicyVersion: z.string(),
      chainId: z.literal(4663),
      identityRule: z.string(),
      assets: z.array(
        z.object({
          ticker: z.string(),
          name: z.string(),
          kind: z.enum(['stock', 'etf', 'stablecoin', 'wrapped_native']),
          address: addressShape,
          decimals: z.number().int(),
          v2ExecutionGrade: z.boolean(),
          oraclePolicy: z.object({
            priceBasis: z.enum(['EXCHANGE_LIVE', 'MODEL_ACCRUAL', 'ACCOUNTING_IDENTITY', 'NOT_A_VAULT_ASSET']),
            priceSource: z.string(),
            priceFeedAddress: addressShape.nullable(),
            maxPriceAgeSeconds: z.number().int().nullable(),
            staleMeans: z.string(),
          }),
          jurisdictionPolicy: z.object({
            svcGatesOnJurisdiction: z.literal(false),
            svcCollectsLocation: z.literal(false),
            depositorAcknowledgment: z.string(),
            note: z.string(),
          }),
          sourceVerification: z.object({
            source: z.string(),
            method: z.literal('published_source_snapshot'),
            lastVerified: z.string(),
            registryVersion: z.string(),
          }),
        }),
      ),
      ...chainBlockFields,
    }),
  )
  .query(({ ctx }) => ({ ...vaultAssetRegistry(), ...vaultChainBlocksFor(ctx.config) }));
