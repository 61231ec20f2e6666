/** A Mode B deposit job as the partnerbot vault-deposit routes answer it (`jobView`). */
import { z } from 'zod';
import { addressShape } from './pack-shapes';

export const jobShape = z
  .object({
    id: z.string().describe('bvd_ followed by 24 hex digits'),
    kind: z.literal('operator_partner_wallet_deposit'),
    submitState: z.enum(['submitting', 'submitted', 'submit_failed']),
    failureCode: z.string().nullable(),
    partnerJobId: z.string().nullable(),
    planHash: z.string(),
    vaultSlug: z.string(),
    vaultAddress: addressShape,
    receiver: addressShape,
    amount: z.string(),
    amountUnits: z.string(),
    createdAt: z.string(),
    userDepositPath: z.literal(false),
  })
  .meta({ id: 'VaultDepositJob' });
