-- CreateTable
CREATE TABLE "SigningKey" (
    "keyId" TEXT NOT NULL,
    "algorithm" TEXT NOT NULL,
    "publicKey" TEXT NOT NULL,
    "validFrom" TIMESTAMP(3) NOT NULL,
    "validUntil" TIMESTAMP(3),

    CONSTRAINT "SigningKey_pkey" PRIMARY KEY ("keyId")
);

-- CreateTable
CREATE TABLE "ReceiptLogEntry" (
    "index" INTEGER NOT NULL,
    "leafHash" TEXT NOT NULL,
    "receiptId" TEXT NOT NULL,
    "appendedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ReceiptLogEntry_pkey" PRIMARY KEY ("index")
);

-- CreateIndex
CREATE UNIQUE INDEX "ReceiptLogEntry_leafHash_key" ON "ReceiptLogEntry"("leafHash");

-- CreateIndex
CREATE INDEX "ReceiptLogEntry_receiptId_idx" ON "ReceiptLogEntry"("receiptId");

