/**
 * The service's public keys and its append-only receipt log (issue 26, docs/trust-model.md):
 * GET /api/receipts/keys, /api/receipts/log/head, /api/receipts/log/inclusion/{receiptId} and
 * /api/receipts/log/consistency. The proofs are computed by receipts/log.ts from the log's tree,
 * kept in memory and caught up with the database on each call (db/receipt-log-repository.ts);
 * every head is signed with the service's key.
 */
import { router } from '../../init';
import { consistencyProcedure } from './consistency';
import { headProcedure } from './head';
import { inclusionProcedure } from './inclusion';
import { keysProcedure } from './keys';

export const receiptLogRouter = router({
  keys: keysProcedure,
  head: headProcedure,
  inclusion: inclusionProcedure,
  consistency: consistencyProcedure,
});
