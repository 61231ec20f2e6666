import { z } from 'zod';
import { listVaults, VAULT_REGISTRY_VERSION } from '../../../vaults/registry';
import { nowIsoField, publicProcedure, rest, stampedOutput } from '../../init';
import { vaultChainBlocksFor } from '../../vault-shapes';
import { chainBlockFields } from '../../../x402/lanes';
import { vaultListingSchema } from '../../../vaults/registry.schema';

export const listProcedure = publicProcedure
  .meta({ family: 'vaults', openapi: rest('GET', '/vaults', 'The registered vaults: the V1 Rail A vault and the V2 canonical vault') })
  .input(z.object({ nowIso: nowIsoField }).optional())
  .output(stampedOutput({ vaultRegistryVersion: z.string(), vaults: z.array(vaultListingSchema), ...chainBlockFields }))
  .query(({ ctx }) => ({ vaultRegistryVersion: VAULT_REGISTRY_VERSION, vaults: listVaults(), ...vaultChainBlocksFor(ctx.config) }));
