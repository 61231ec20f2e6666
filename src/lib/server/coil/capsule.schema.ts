/** A compiled capsule (coil/capsule.ts) as answers show it. */
import { z } from 'zod';
import { fuseUnitOut } from './audit.schema';
import { FUSE_KINDS } from './fuse-catalogue';
import { COIL_MODES, EXECUTION_MODES } from './manifest';

export const capsuleOut = z.object({
  capsuleVersion: z.string(),
  coilId: z.string(),
  coilSlug: z.string(),
  manifestHash: z.string(),
  mode: z.enum(COIL_MODES),
  executionMode: z.enum(EXECUTION_MODES),
  chainId: z.literal(4663),
  maxTotalNotionalUsd: z.number(),
  allocations: z.array(
    z.object({ ticker: z.string(), tokenAddress: z.string(), targetWeightBps: z.number(), notionalCeilingUsd: z.number() }),
  ),
  fuses: z.array(z.object({ kind: z.enum(FUSE_KINDS), unit: fuseUnitOut, limit: z.number().nullable(), source: z.string() })),
  fusesDefaulted: z.array(z.enum(FUSE_KINDS)),
  fuseChecksum: z.string(),
  humanConfirmation: z.object({ required: z.literal(true), mustConfirm: z.array(z.string()) }),
  agenticModeAcknowledged: z.boolean(),
  planSteps: z.array(z.string()),
  containsOrders: z.literal(false),
  svcExecutes: z.literal(false),
  capsuleHash: z.string(),
});
