import { z } from 'zod';
import { readVaultV2Status } from '../../../vaults/v2-status';
import { nowIsoField, publicProcedure, rest, stampedOutput } from '../../init';
import { chainReaderFor, liveSource, vaultChainBlocksFor } from '../../vault-shapes';
import { v2StatusShape } from '../../../vaults/v2-status.schema';
import { chainBlockFields } from '../../../x402/lanes';

export const v2StatusProcedure = publicProcedure
  .meta({
    family: 'vaults',
    openapi: rest('GET', '/vaults/v2/status', 'Fresh on-chain status of the V2 vault suite'),
  })
  .input(z.object({ nowIso: nowIsoField }).optional())
  .output(stampedOutput({ ...v2StatusShape, ...chainBlockFields }))
  .query(async ({ ctx }) => {
    const status = await readVaultV2Status(chainReaderFor(ctx.config), { answerTime: ctx.answerTime, serverTime: ctx.serverTime });
    return { ...status, ...vaultChainBlocksFor(ctx.config, liveSource('V2 suite reads', status.readAt, status.readSummary.live > 0)) };
  });
