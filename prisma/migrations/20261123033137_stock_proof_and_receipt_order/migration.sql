-- Written for SQLite by hand from `prisma migrate diff`: the diff rebuilds both tables to add a
-- NOT NULL column, but the migration runner applies a migration inside a transaction, where
-- `PRAGMA foreign_keys=OFF` has no effect, so dropping the old "StockReceipt" would
-- cascade-delete every "StockReceiptEvent". SQLite adds a NOT NULL column in place when it has
-- a constant default; every existing row then gets its real value below, and the service always
-- writes the column itself.
-- Rows stored before this migration take their recorded creation time as their stored and
-- first-prepared time (the best record there is).

-- AlterTable
ALTER TABLE "Receipt" ADD COLUMN "storedAt" DATETIME NOT NULL DEFAULT '1970-01-01T00:00:00.000+00:00';
UPDATE "Receipt" SET "storedAt" = "createdAt";

-- AlterTable
ALTER TABLE "StockReceipt" ADD COLUMN "firstPreparedAt" DATETIME NOT NULL DEFAULT '1970-01-01T00:00:00.000+00:00';
UPDATE "StockReceipt" SET "firstPreparedAt" = "createdAt";

-- CreateIndex
CREATE INDEX "Receipt_coilSlug_storedAt_idx" ON "Receipt"("coilSlug", "storedAt");

-- One transaction proves at most one plan (unique "txHash" below). A hash recorded before this
-- migration as the proof of several receipts proves none of them: each goes back to `prepared`
-- with the reason in its history, and can be reconciled again under the new matching rules.
INSERT INTO "StockReceiptEvent" ("id", "receiptId", "seq", "trigger", "fromStatus", "toStatus", "reason", "jobId", "partnerJobStatus", "txHash", "blockNumber", "chainId", "at")
SELECT 'migration-proof-reset-' || "id", "id", "version" + 1, 'reconcile', "status", 'prepared', 'PROOF_RESET_TX_SHARED_BY_PLANS', "jobId", NULL, "txHash", "blockNumber", 4663, "updatedAt"
FROM "StockReceipt" WHERE "txHash" IN (SELECT "txHash" FROM "StockReceipt" WHERE "txHash" IS NOT NULL GROUP BY "txHash" HAVING COUNT(*) > 1);
UPDATE "StockReceipt" SET "status" = 'prepared', "statusReason" = 'PROOF_RESET_TX_SHARED_BY_PLANS', "txHash" = NULL, "blockNumber" = NULL, "version" = "version" + 1
WHERE "txHash" IN (SELECT "txHash" FROM "StockReceipt" WHERE "txHash" IS NOT NULL GROUP BY "txHash" HAVING COUNT(*) > 1);

-- CreateIndex
CREATE UNIQUE INDEX "StockReceipt_txHash_key" ON "StockReceipt"("txHash");
