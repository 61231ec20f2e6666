import { z } from 'zod';
import { nowIsoField, publicProcedure, rest, stampedOutput } from '../../init';
import { PAID_VAULT_SERVICES } from '../../../x402/catalogue';
import { laneSelectionPreview, laneSelectionPreviewSchema, providerDirectory, providerDirectorySchema } from '../../../x402/directory';
import { chainBlocks, chainBlockFields, facilitatorLaneState, facilitatorSettingsFrom } from '../../../x402/lanes';
import { laneOf } from './paid-flow';

export const providersProcedure = publicProcedure
  .meta({
    family: 'x402',
    openapi: rest('GET', '/x402/providers', 'x402 provider directory and per-service lane preview'),
  })
  .input(z.object({ nowIso: nowIsoField }).optional())
  .output(
    stampedOutput({
      providers: providerDirectorySchema,
      laneSelection: laneSelectionPreviewSchema,
      generatedAt: z.string(),
      ...chainBlockFields,
    }),
  )
  .query(({ ctx }) => {
    const lane = laneOf(ctx.config);
    return {
      providers: providerDirectory(facilitatorLaneState(facilitatorSettingsFrom(ctx.config.facilitator))),
      laneSelection: laneSelectionPreview(PAID_VAULT_SERVICES, lane),
      generatedAt: ctx.answerTime.toISOString(),
      ...chainBlocks(lane),
    };
  });
