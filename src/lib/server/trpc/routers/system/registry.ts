/** GET /api/stocks/registry: the canonical registry of chain 4663. */
import { publicRegistry } from '../../../registry';
import { registryOut } from '../../../registry/registry.schema';
import { publicProcedure, rest } from '../../init';
import { clockOnlyInput } from './meta';

export const registryProcedure = publicProcedure
  .meta({
    family: 'registry',
    staticAnswer: true,
    openapi: rest('GET', '/stocks/registry', 'The canonical registry of chain 4663 (public-safe)'),
  })
  .input(clockOnlyInput)
  .output(registryOut)
  .query(() => publicRegistry());
