-- CreateTable
CREATE TABLE "StockReceipt" (
    "id" TEXT NOT NULL,
    "planHash" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "statusReason" TEXT,
    "intentJson" TEXT NOT NULL,
    "generatedAt" TIMESTAMP(3) NOT NULL,
    "targetSymbol" TEXT NOT NULL,
    "targetTokenAddress" TEXT NOT NULL,
    "jobId" TEXT,
    "partnerJobStatus" TEXT,
    "txHash" TEXT,
    "blockNumber" TEXT,
    "submitClaimedAt" TIMESTAMP(3),
    "version" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "StockReceipt_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "StockReceiptEvent" (
    "id" TEXT NOT NULL,
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
    "at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "StockReceiptEvent_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "StockReceipt_planHash_key" ON "StockReceipt"("planHash");

-- CreateIndex
CREATE UNIQUE INDEX "StockReceipt_jobId_key" ON "StockReceipt"("jobId");

-- CreateIndex
CREATE UNIQUE INDEX "StockReceiptEvent_receiptId_seq_key" ON "StockReceiptEvent"("receiptId", "seq");

-- AddForeignKey
ALTER TABLE "StockReceiptEvent" ADD CONSTRAINT "StockReceiptEvent_receiptId_fkey" FOREIGN KEY ("receiptId") REFERENCES "StockReceipt"("id") ON DELETE CASCADE ON UPDATE CASCADE;

