-- Fewer B-tree writes per stored tool call (issue 27). A call from no wallet, of a root Coil,
-- with no strategist wrote a NULL into five indexes that no query reads by NULL: each index
-- over a nullable column now holds only the rows where that column is set (every query on
-- them asks for a value: `= ?`, `IN (...)`, which implies IS NOT NULL, so they still use it).
-- The log's receiptId index goes: an entry is found by its leaf hash, which the Receipt row
-- gives (db/receipt-log-repository.ts). Prisma 6 cannot write a partial index; the schema
-- keeps the plain @@index and says so.
DROP INDEX "Coil_parentManifestHash_idx";
CREATE INDEX "Coil_parentManifestHash_idx" ON "Coil"("parentManifestHash") WHERE "parentManifestHash" IS NOT NULL;
DROP INDEX "Coil_agentId_idx";
CREATE INDEX "Coil_agentId_idx" ON "Coil"("agentId") WHERE "agentId" IS NOT NULL;
DROP INDEX "Coil_ownerAddress_createdAt_idx";
CREATE INDEX "Coil_ownerAddress_createdAt_idx" ON "Coil"("ownerAddress", "createdAt") WHERE "ownerAddress" IS NOT NULL;
DROP INDEX "Receipt_parentManifestHash_idx";
CREATE INDEX "Receipt_parentManifestHash_idx" ON "Receipt"("parentManifestHash") WHERE "parentManifestHash" IS NOT NULL;
DROP INDEX "Receipt_ownerAddress_createdAt_idx";
CREATE INDEX "Receipt_ownerAddress_createdAt_idx" ON "Receipt"("ownerAddress", "createdAt") WHERE "ownerAddress" IS NOT NULL;
DROP INDEX "ReceiptLogEntry_receiptId_idx";
