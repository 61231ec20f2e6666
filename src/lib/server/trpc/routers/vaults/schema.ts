import { z } from 'zod';
import { feeScheduleSchema } from '../../../vaults/fees';
import { buildVaultSchema } from '../../../vaults/schema';
import { vaultRoutes } from '../../vault-routes';
import { x402ArchitectureSchema } from '../../../x402/architecture';
import { vaultServiceLaneOf } from '../../../x402/lanes';
import { nowIsoField, publicProcedure, rest, stampedOutput } from '../../init';
import { addressShape, vaultChainBlocksFor } from '../../vault-shapes';
import { chainBlockFields } from '../../../x402/lanes';
import { ackTextSchema, vaultListingSchema } from '../../../vaults/registry.schema';

export const schemaProcedure = publicProcedure
  .meta({
    family: 'vaults',
    openapi: rest(
      'GET',
      '/vaults/schema',
      'Vault routes, chain and payment model, fee schedule, public deposit gate, deposit rail, architecture object',
    ),
  })
  .input(z.object({ nowIso: nowIsoField }).optional())
  .output(
    stampedOutput({
      schemaVersion: z.string(),
      vaultRegistryVersion: z.string(),
      routes: z.array(z.object({ method: z.enum(['GET', 'POST']), path: z.string(), purpose: z.string() })),
      vaults: z.array(vaultListingSchema),
      chainModel: z.object({ vaultChain: chainBlockFields.vaultChain, rule: z.string() }),
      paymentModel: z.object({ deposits: z.string(), paidServices: z.string(), x402PaymentChain: chainBlockFields.x402PaymentChain }),
      feeSchedule: feeScheduleSchema,
      publicDepositGate: z.object({
        rule: z.string(),
        checks: z.array(z.string()),
        states: z.array(z.string()),
        depositReadinessRegistry: addressShape,
        readRoute: z.string(),
        refusalCode: z.string(),
        gatedRoutes: z.array(z.string()),
      }),
      depositRail: z.object({
        railId: z.literal('rail_a_vault_deposit'),
        packVersion: z.string(),
        vaultSlug: z.string(),
        vaultAddress: addressShape,
        depositFunction: z.string(),
        plainDepositReverts: z.literal(true),
        maxAmountPerPackUsdg: z.string(),
        amountDecimals: z.literal(6),
        packLifetimeSeconds: z.object({ default: z.number().int(), min: z.number().int(), max: z.number().int() }),
        ackTexts: z.array(ackTextSchema),
        modes: z.array(z.string()),
        completionRule: z.string(),
        svcExecutesDeposit: z.literal(false),
      }),
      architecture: x402ArchitectureSchema,
      ...chainBlockFields,
    }),
  )
  .query(({ ctx }) => ({
    ...buildVaultSchema({
      routes: vaultRoutes(),
      lane: vaultServiceLaneOf(ctx.config.facilitator),
      architecture: { address: ctx.config.facilitator.address },
    }),
    ...vaultChainBlocksFor(ctx.config),
  }));
