/** GET /api/agents/passport/{agentId}: the reputation of a strategist or a wallet, from stored Coils and receipts. */
import { z } from 'zod';
import { computePassport } from '../../../receipts/passport';
import { passportOut } from '../../../receipts/passport.schema';
import { checksumAddress } from '../../../registry';
import { nowIsoField, publicProcedure } from '../../init';
import { storedCoilsOf } from '../../procedure-kit/coil-store';
import { toolAnswer, toolFields } from '../../procedure-kit/tool-answer';
import { toolsMeta } from './meta';

export const passportProcedure = publicProcedure
  .meta(toolsMeta('GET', '/agents/passport/{agentId}', 'Agent passport: a 0 to 1000 reputation (policy passport-policy-1.0.0)'))
  .input(
    z.object({
      agentId: z.string().regex(/^(?:mock|partner|0x[0-9a-fA-F]{40})$/, 'mock, partner or a wallet address'),
      nowIso: nowIsoField,
    }),
  )
  .output(toolFields('passport', { passport: passportOut }))
  .query(async ({ ctx, input }) => {
    const wallet = input.agentId.startsWith('0x');
    const id = wallet ? checksumAddress(input.agentId)! : input.agentId;
    const stats = await (await storedCoilsOf(ctx)).passportStats({ kind: wallet ? 'wallet' : 'strategist', id });
    return toolAnswer('passport', ctx, { passport: computePassport(id, wallet ? 'wallet' : 'strategist', stats, ctx.answerTime) });
  });
