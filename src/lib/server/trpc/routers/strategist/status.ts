/** GET /api/agent/svc: which strategist would answer now. */
import { z } from 'zod';
import { strategistStatus } from '../../../strategist';
import { strategistStatusFields } from '../../../strategist/strategist.schema';
import { nowIsoField, publicProcedure, rest, stampedOutput } from '../../init';
import { strategistConfigOf } from '../../procedure-kit/strategist-config';

export const statusProcedure = publicProcedure
  .meta({ family: 'strategist', openapi: rest('GET', '/agent/svc', 'Strategist provider status', { tags: ['strategist'] }) })
  .input(z.object({ nowIso: nowIsoField }).optional())
  .output(stampedOutput(strategistStatusFields))
  .query(({ ctx }) => strategistStatus(strategistConfigOf(ctx.config)));
