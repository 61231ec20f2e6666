-- Rows stored before this migration take their recorded creation time as their stored and
-- first-prepared time (the best record there is).
-- One transaction proves at most one plan (unique "txHash" below). A hash recorded before this
-- migration as the proof of several receipts proves none of them: each goes back to `prepared`
-- with the reason in its history, and can be reconciled again under the new matching rules.
INSERT INTO "StockReceiptEvent" ("id", "receiptId", "seq", "trigger", "fromStatus", "toStatus", "reason", "jobId", "partnerJobStatus", "txHash", "blockNumber", "chainId", "at")
SELECT 'migration-proof-reset-' || "id", "id", "version" + 1, 'reconcile', "status", 'prepared', 'PROOF_RESET_TX_SHARED_BY_PLANS', "jobId", NULL, "txHash", "blockNumber", 4663, "updatedAt"
FROM "StockReceipt" WHERE "txHash" IN (SELECT "txHash" FROM "StockReceipt" WHERE "txHash" IS NOT NULL GROUP BY "txHash" HAVING COUNT(*) > 1);
UPDATE "StockReceipt" SET "status" = 'prepared', "statusReason" = 'PROOF_RESET_TX_SHARED_BY_PLANS', "txHash" = NULL, "blockNumber" = NULL, "version" = "version" + 1
WHERE "txHash" IN (SELECT "txHash" FROM "StockReceipt" WHERE "txHash" IS NOT NULL GROUP BY "txHash" HAVING COUNT(*) > 1);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Receipt" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "receiptId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "manifestHash" TEXT NOT NULL,
    "parentManifestHash" TEXT,
    "weightsChecksum" TEXT NOT NULL,
    "validationStatus" TEXT NOT NULL,
    "coilSlug" TEXT NOT NULL,
    "ownerAddress" TEXT,
    "receiptJson" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL,
    "storedAt" DATETIME NOT NULL,
    CONSTRAINT "Receipt_ownerAddress_fkey" FOREIGN KEY ("ownerAddress") REFERENCES "WalletUser" ("address") ON DELETE SET NULL ON UPDATE CASCADE
);
INSERT INTO "new_Receipt" ("coilSlug", "createdAt", "id", "kind", "manifestHash", "ownerAddress", "parentManifestHash", "receiptId", "receiptJson", "validationStatus", "weightsChecksum", "storedAt") SELECT "coilSlug", "createdAt", "id", "kind", "manifestHash", "ownerAddress", "parentManifestHash", "receiptId", "receiptJson", "validationStatus", "weightsChecksum", "createdAt" FROM "Receipt";
DROP TABLE "Receipt";
ALTER TABLE "new_Receipt" RENAME TO "Receipt";
CREATE INDEX "Receipt_receiptId_idx" ON "Receipt"("receiptId");
CREATE INDEX "Receipt_coilSlug_storedAt_idx" ON "Receipt"("coilSlug", "storedAt");
CREATE INDEX "Receipt_manifestHash_idx" ON "Receipt"("manifestHash");
CREATE INDEX "Receipt_ownerAddress_createdAt_idx" ON "Receipt"("ownerAddress", "createdAt");
CREATE INDEX "Receipt_parentManifestHash_idx" ON "Receipt"("parentManifestHash");
CREATE TABLE "new_StockReceipt" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "planHash" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "statusReason" TEXT,
    "intentJson" TEXT NOT NULL,
    "generatedAt" DATETIME NOT NULL,
    "targetSymbol" TEXT NOT NULL,
    "targetTokenAddress" TEXT NOT NULL,
    "jobId" TEXT,
    "partnerJobStatus" TEXT,
    "txHash" TEXT,
    "blockNumber" TEXT,
    "firstPreparedAt" DATETIME NOT NULL,
    "submitClaimedAt" DATETIME,
    "version" INTEGER NOT NULL,
    "createdAt" DATETIME NOT NULL,
    "updatedAt" DATETIME NOT NULL
);
INSERT INTO "new_StockReceipt" ("blockNumber", "createdAt", "generatedAt", "id", "intentJson", "jobId", "partnerJobStatus", "planHash", "status", "statusReason", "submitClaimedAt", "targetSymbol", "targetTokenAddress", "txHash", "updatedAt", "version", "firstPreparedAt") SELECT "blockNumber", "createdAt", "generatedAt", "id", "intentJson", "jobId", "partnerJobStatus", "planHash", "status", "statusReason", "submitClaimedAt", "targetSymbol", "targetTokenAddress", "txHash", "updatedAt", "version", "createdAt" FROM "StockReceipt";
DROP TABLE "StockReceipt";
ALTER TABLE "new_StockReceipt" RENAME TO "StockReceipt";
CREATE UNIQUE INDEX "StockReceipt_planHash_key" ON "StockReceipt"("planHash");
CREATE UNIQUE INDEX "StockReceipt_jobId_key" ON "StockReceipt"("jobId");
CREATE UNIQUE INDEX "StockReceipt_txHash_key" ON "StockReceipt"("txHash");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

