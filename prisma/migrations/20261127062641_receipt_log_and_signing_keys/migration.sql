-- CreateTable
CREATE TABLE "SigningKey" (
    "keyId" TEXT NOT NULL PRIMARY KEY,
    "algorithm" TEXT NOT NULL,
    "publicKey" TEXT NOT NULL,
    "validFrom" DATETIME NOT NULL,
    "validUntil" DATETIME
);

-- CreateTable
CREATE TABLE "ReceiptLogEntry" (
    "index" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "leafHash" TEXT NOT NULL,
    "receiptId" TEXT NOT NULL,
    "appendedAt" DATETIME NOT NULL
);

-- CreateIndex
CREATE UNIQUE INDEX "ReceiptLogEntry_leafHash_key" ON "ReceiptLogEntry"("leafHash");

-- CreateIndex
CREATE INDEX "ReceiptLogEntry_receiptId_idx" ON "ReceiptLogEntry"("receiptId");

