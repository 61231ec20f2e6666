/** What the operations of the receipt-log family share: their meta, the tree-size parameter, its refusal. */
import { SvcError } from '../../../errors';
import { queryInt, rest } from '../../init';

export const receiptLogMeta = (path: `/${string}`, summary: string) => ({
  family: 'tools' as const,
  openapi: rest('GET', path, summary, { tags: ['receipts'] }),
});

/** A tree size in the query string, shown in the OpenAPI document as the integer it is. */
export const treeSizeParam = (description: string) =>
  queryInt({ min: 0, max: 2 ** 31 - 1 })
    .meta({
      description,
      override: ({ jsonSchema }: { jsonSchema: Record<string, unknown> }) => {
        delete jsonSchema.anyOf;
        Object.assign(jsonSchema, { type: 'integer', minimum: 0 });
      },
    })
    .optional();

export function sizeOutOfRange(path: string, size: number): SvcError {
  return new SvcError('TREE_SIZE_OUT_OF_RANGE', 'The log does not have a tree of this size', {
    issues: [{ code: 'TREE_SIZE_OUT_OF_RANGE', message: `the log holds ${size} entries`, path }],
  });
}

export function receiptNotFound(): SvcError {
  return new SvcError('RECEIPT_NOT_FOUND', 'No receipt with this id is stored for you', {
    issues: [{ code: 'RECEIPT_NOT_FOUND', message: 'issue the receipt first', path: 'receiptId' }],
  });
}

/**
 * A stored receipt that is not in the log asked: 404 RECEIPT_NOT_LOGGED, the reason in the
 * issue's message (receipts/log-policy.ts): nobody asked to keep it, it is in the other log, or
 * it was stored before either log existed.
 */
export function receiptNotLogged(message: string, reason: string): SvcError {
  return new SvcError('RECEIPT_NOT_LOGGED', message, { issues: [{ code: 'RECEIPT_NOT_LOGGED', message: reason, path: 'receiptId' }] });
}
