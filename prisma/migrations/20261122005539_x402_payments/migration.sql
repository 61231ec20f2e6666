-- CreateTable
CREATE TABLE "X402Authorization" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "network" TEXT NOT NULL,
    "asset" TEXT NOT NULL,
    "payer" TEXT NOT NULL,
    "nonce" TEXT NOT NULL,
    "serviceName" TEXT NOT NULL,
    "amountUnits" TEXT NOT NULL,
    "payTo" TEXT NOT NULL,
    "x402Version" INTEGER NOT NULL,
    "status" TEXT NOT NULL,
    "facilitatorReason" TEXT,
    "transaction" TEXT,
    "receiptId" TEXT,
    "createdAt" DATETIME NOT NULL,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "X402PaymentReceipt" (
    "receiptId" TEXT NOT NULL PRIMARY KEY,
    "authorizationId" TEXT NOT NULL,
    "serviceName" TEXT NOT NULL,
    "payer" TEXT NOT NULL,
    "payTo" TEXT NOT NULL,
    "amountUnits" TEXT NOT NULL,
    "network" TEXT NOT NULL,
    "transaction" TEXT NOT NULL,
    "receiptHash" TEXT NOT NULL,
    "receiptJson" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL
);

-- CreateIndex
CREATE INDEX "X402Authorization_status_idx" ON "X402Authorization"("status");

-- CreateIndex
CREATE UNIQUE INDEX "X402Authorization_network_asset_payer_nonce_key" ON "X402Authorization"("network", "asset", "payer", "nonce");

-- CreateIndex
CREATE UNIQUE INDEX "X402PaymentReceipt_authorizationId_key" ON "X402PaymentReceipt"("authorizationId");

-- CreateIndex
CREATE INDEX "X402PaymentReceipt_payer_createdAt_idx" ON "X402PaymentReceipt"("payer", "createdAt");

