-- CreateTable
CREATE TABLE "StockReceipt" (
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
    "submitClaimedAt" DATETIME,
    "version" INTEGER NOT NULL,
    "createdAt" DATETIME NOT NULL,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "StockReceiptEvent" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "receiptId" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "trigger" TEXT NOT NULL,
    "fromStatus" TEXT,
    "toStatus" TEXT NOT NULL,
    "reason" TEXT,
    "jobId" TEXT,
    "partnerJobStatus" TEXT,
    "txHash" TEXT,
    "blockNumber" TEXT,
    "chainId" INTEGER,
    "at" DATETIME NOT NULL,
    CONSTRAINT "StockReceiptEvent_receiptId_fkey" FOREIGN KEY ("receiptId") REFERENCES "StockReceipt" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "StockReceipt_planHash_key" ON "StockReceipt"("planHash");

-- CreateIndex
CREATE UNIQUE INDEX "StockReceipt_jobId_key" ON "StockReceipt"("jobId");

-- CreateIndex
CREATE UNIQUE INDEX "StockReceiptEvent_receiptId_seq_key" ON "StockReceiptEvent"("receiptId", "seq");

