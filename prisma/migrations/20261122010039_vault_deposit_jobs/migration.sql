-- CreateTable
CREATE TABLE "VaultDepositJob" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "planHash" TEXT NOT NULL,
    "vaultSlug" TEXT NOT NULL,
    "vaultAddress" TEXT NOT NULL,
    "receiver" TEXT NOT NULL,
    "amount" TEXT NOT NULL,
    "amountUnits" TEXT NOT NULL,
    "submitState" TEXT NOT NULL,
    "failureCode" TEXT,
    "partnerJobId" TEXT,
    "txHashesJson" TEXT NOT NULL,
    "packJson" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL,
    "updatedAt" DATETIME NOT NULL
);

-- CreateIndex
CREATE UNIQUE INDEX "VaultDepositJob_planHash_key" ON "VaultDepositJob"("planHash");

-- CreateIndex
CREATE INDEX "VaultDepositJob_receiver_createdAt_idx" ON "VaultDepositJob"("receiver", "createdAt");

