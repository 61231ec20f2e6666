import { z } from 'zod';
import { evaluateDepositGate } from '../../../vaults/deposit-gate';
import { resolveRailAVault } from '../../../vaults/registry';
import { nowIsoField, publicProcedure, rest, stampedOutput } from '../../init';
import { chainReaderFor, gateShape, liveSource, vaultChainBlocksFor } from '../../vault-shapes';
import { chainBlockFields } from '../../../x402/lanes';

export const readinessProcedure = publicProcedure
  .meta({
    family: 'vaults',
    openapi: rest('GET', '/vaults/readiness', "The Rail A vault's public deposit gate, read live"),
  })
  .input(z.object({ vault: z.string().max(100).optional(), nowIso: nowIsoField }).optional())
  .output(stampedOutput({ gate: gateShape, ...chainBlockFields }))
  .query(async ({ ctx, input }) => {
    const gate = await evaluateDepositGate(resolveRailAVault(input?.vault), chainReaderFor(ctx.config), ctx.answerTime);
    return { gate, ...vaultChainBlocksFor(ctx.config, liveSource('deposit gate', gate.checkedAt, gate.source === 'onchain_eth_call')) };
  });
