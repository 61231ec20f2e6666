/** The caller's saved Coils and receipts (db/me-repository.ts) as the /me answers show them, and their paging. */
import { z } from 'zod';
import { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT, decodeCursor } from '../../../db/page-cursor';
import { queryInt } from '../../init';

/** How a query integer reads in the OpenAPI document (queryInt also takes a digit string). */
function integerParam(description: string, min: number, max: number) {
  return {
    description,
    override: ({ jsonSchema }: { jsonSchema: Record<string, unknown> }) => {
      delete jsonSchema.anyOf;
      Object.assign(jsonSchema, { type: 'integer', minimum: min, maximum: max });
    },
  };
}

export const pageFields = {
  cursor: z.string().max(400).meta({ description: '`nextCursor` of the previous page, unchanged; omit for the newest page' }).optional(),
  limit: queryInt({ min: 1, max: MAX_PAGE_LIMIT })
    .meta(integerParam(`Rows per page, 1 to ${MAX_PAGE_LIMIT} (default ${DEFAULT_PAGE_LIMIT})`, 1, MAX_PAGE_LIMIT))
    .optional(),
};

export function pageOf(input: { cursor?: string; limit?: number } | undefined) {
  return {
    cursor: input?.cursor !== undefined ? decodeCursor(input.cursor) : undefined,
    limit: input?.limit ?? DEFAULT_PAGE_LIMIT,
  };
}

export const nextCursor = z.string().nullable().describe('Pass as `cursor` for the next page; null on the last page');

const document = z.record(z.string(), z.unknown());

export const ownedCoil = z.object({
  id: z.string(),
  slug: z.string(),
  name: z.string().nullable(),
  manifestHash: z.string(),
  parentManifestHash: z.string().nullable(),
  forkOf: z.string().nullable(),
  score: z.number().nullable(),
  createdAt: z.string(),
  manifest: document.describe('The stored manifest (canonical JSON)'),
});

export const ownedReceipt = z.object({
  id: z.string(),
  receiptId: z.string(),
  kind: z.string(),
  manifestHash: z.string(),
  parentManifestHash: z.string().nullable(),
  weightsChecksum: z.string(),
  validationStatus: z.string(),
  coilSlug: z.string(),
  createdAt: z.string(),
  receipt: document.describe('The stored receipt document'),
});
