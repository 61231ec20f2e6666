/** The request fields the autonomy procedures share. */
import { z } from 'zod';
import { AUTONOMY_MODES } from '../../../autonomy/modes';
import { coilSchema, fuseSchema } from '../../../coil/manifest';

export const coilField = coilSchema.describe('A Coil; a value that is not a Coil at all is 400 COIL_SHAPE');

export const autonomyModeField = z.enum(AUTONOMY_MODES).describe('paper (default), preview or live_candidate; none sends anything');

export const fusesField = z
  .array(fuseSchema)
  .max(32)
  .describe("Fuses the agent will run under, on top of the Coil's own: each may tighten a Coil fuse, never widen it");

export const ackField = z
  .record(z.string(), z.unknown())
  .describe(
    'The live-autonomy acknowledgment of GET /api/partnerbot/schema: each statement literally true, plus acknowledgedAt (ISO 8601). Read for live_candidate only',
  );

export const pathOptionsField = z
  .object({
    autonomyMode: autonomyModeField.optional(),
    fuses: fusesField.optional(),
    liveAutonomyAck: ackField.optional(),
    maxTotalNotionalUsd: z.number().positive().optional().describe('USD of the run; at most the maxTotalNotional fuse in force and 10000'),
  })
  .optional();
