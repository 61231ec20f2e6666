-- CreateTable
CREATE TABLE "CoilClaim" (
    "id" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "manifestHash" TEXT NOT NULL,
    "receiptId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "claimedBy" TEXT,
    "claimedAt" TIMESTAMP(3),

    CONSTRAINT "CoilClaim_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "CoilClaim_tokenHash_createdAt_idx" ON "CoilClaim"("tokenHash", "createdAt");

