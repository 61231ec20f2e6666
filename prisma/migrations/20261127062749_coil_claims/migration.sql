-- CreateTable
CREATE TABLE "CoilClaim" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "tokenHash" TEXT NOT NULL,
    "manifestHash" TEXT NOT NULL,
    "receiptId" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL,
    "claimedBy" TEXT,
    "claimedAt" DATETIME
);

-- CreateIndex
CREATE INDEX "CoilClaim_tokenHash_createdAt_idx" ON "CoilClaim"("tokenHash", "createdAt");

