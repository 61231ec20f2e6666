/** GET /api/health: the service's mode and feature flags (booleans only). */
import { serviceHealth } from '../../../system/health';
import { serviceHealthOut } from '../../../system/health.schema';
import { publicProcedure, rest } from '../../init';
import { clockOnlyInput } from './meta';

export const healthProcedure = publicProcedure
  .meta({ family: 'system', staticAnswer: true, openapi: rest('GET', '/health', 'Service mode and feature flags (booleans only)') })
  .input(clockOnlyInput)
  .output(serviceHealthOut)
  .query(({ ctx }) => serviceHealth(ctx.config));
