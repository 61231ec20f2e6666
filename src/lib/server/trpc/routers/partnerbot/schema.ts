import { z } from 'zod';
import { partnerbotSchemaFields } from '../../../autonomy/partnerbot-schema.schema';
import { partnerbotSchema } from '../../../autonomy/partnerbot-schema';
import { vaultServiceLaneOf } from '../../../x402/lanes';
import { nowIsoField, publicProcedure, rest, stampedOutput } from '../../init';

const partnerbotSchemaOutput = stampedOutput(partnerbotSchemaFields);

export const schemaProcedure = publicProcedure
  .meta({
    family: 'autonomy',
    openapi: rest(
      'GET',
      '/partnerbot/schema',
      'The autonomy path: routes, deposit modes, mandatory fuses, the live-autonomy acknowledgment shape and the x402 call plan',
    ),
  })
  .input(z.object({ nowIso: nowIsoField }).optional())
  .output(partnerbotSchemaOutput)
  .query(({ ctx }) => partnerbotSchema({ lane: vaultServiceLaneOf(ctx.config.facilitator), now: ctx.answerTime }));
