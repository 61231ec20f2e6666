-- CreateTable
CREATE TABLE "ProofBinding" (
    "txHash" TEXT NOT NULL PRIMARY KEY,
    "binding" TEXT NOT NULL,
    "stockReceiptId" TEXT,
    "vaultDepositJobId" TEXT,
    "boundAt" DATETIME NOT NULL,
    CONSTRAINT "ProofBinding_stockReceiptId_fkey" FOREIGN KEY ("stockReceiptId") REFERENCES "StockReceipt" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ProofBinding_vaultDepositJobId_fkey" FOREIGN KEY ("vaultDepositJobId") REFERENCES "VaultDepositJob" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "DepositPackSighting" (
    "planHash" TEXT NOT NULL PRIMARY KEY,
    "firstSeenAt" DATETIME NOT NULL
);

-- CreateIndex
CREATE UNIQUE INDEX "ProofBinding_stockReceiptId_key" ON "ProofBinding"("stockReceiptId");

-- CreateIndex
CREATE UNIQUE INDEX "ProofBinding_vaultDepositJobId_key" ON "ProofBinding"("vaultDepositJobId");


-- A plan's proof recorded before this migration becomes its binding. How it was tied to the
-- plan was not recorded, so it is kept as the weaker `caller_claim`: a partner job that names
-- the transaction can still take it (src/lib/server/proof/rule.ts).
INSERT INTO "ProofBinding" ("txHash", "binding", "stockReceiptId", "boundAt")
SELECT "txHash", 'caller_claim', "id", "updatedAt" FROM "StockReceipt" WHERE "txHash" IS NOT NULL;
