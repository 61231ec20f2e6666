import { getAddress } from 'viem';
import { z } from 'zod';
import { findAuthorization } from '../../../db/x402-payment-repository';
import { SvcError } from '../../../errors';
import { nowIsoField, publicProcedure, rest, stampedOutput } from '../../init';
import { FACILITATOR_LANE } from '../../../x402/constants';
import { chainBlocks, chainBlockFields } from '../../../x402/lanes';
import { answerKept, authorizationId, authorizationStatusSchema, needsReconciliation } from '../../../x402/settlement';
import { laneOf } from './paid-flow';

export const authorizationProcedure = publicProcedure
  .meta({
    family: 'x402',
    openapi: rest('GET', '/x402/authorizations/{payer}/{nonce}', 'Where one EIP-3009 authorization stands (for reconciliation)'),
  })
  .input(
    z.object({
      payer: z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'expected a 20-byte hex address'),
      nonce: z.string().regex(/^0x[0-9a-fA-F]{64}$/, 'expected a 32-byte hex nonce'),
      nowIso: nowIsoField,
    }),
  )
  .output(
    stampedOutput({
      authorization: z.object({
        id: z.string(),
        serviceName: z.string(),
        payer: z.string(),
        nonce: z.string(),
        payTo: z.string(),
        amountUnits: z.string(),
        x402Version: z.number().int(),
        status: authorizationStatusSchema,
        facilitatorReason: z.string().nullable(),
        facilitatorTransaction: z.string().nullable(),
        receiptId: z.string().nullable(),
        answerKept: z.boolean(),
        answerKeptUntil: z.string().nullable(),
      }),
      reconciliationNeeded: z.boolean(),
      ...chainBlockFields,
    }),
  )
  .query(async ({ ctx, input }) => {
    const lane = laneOf(ctx.config);
    const key = {
      network: FACILITATOR_LANE.network,
      asset: FACILITATOR_LANE.assetAddress,
      payer: getAddress(input.payer),
      nonce: input.nonce.toLowerCase(),
    };
    const row = await findAuthorization(key);
    if (!row) {
      throw new SvcError('X402_AUTHORIZATION_NOT_FOUND', 'This authorization was never presented to this service', {
        issues: [{ code: 'X402_AUTHORIZATION_NOT_FOUND', message: `no record ${authorizationId(key)}`, path: 'nonce' }],
      });
    }
    return {
      authorization: {
        id: row.id,
        serviceName: row.serviceName,
        payer: row.payer,
        nonce: row.nonce,
        payTo: row.payTo,
        amountUnits: row.amountUnits,
        x402Version: row.x402Version,
        status: row.status,
        facilitatorReason: row.facilitatorReason,
        facilitatorTransaction: row.transaction,
        receiptId: row.receiptId,
        answerKept: answerKept(row, ctx.serverTime),
        answerKeptUntil: row.answerKeptUntil?.toISOString() ?? null,
      },
      reconciliationNeeded: needsReconciliation(row.status),
      ...chainBlocks(lane),
    };
  });
