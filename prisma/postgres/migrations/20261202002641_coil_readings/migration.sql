-- CreateTable
CREATE TABLE "CoilReading" (
    "id" TEXT NOT NULL,
    "receiptId" TEXT NOT NULL,
    "manifestHash" TEXT NOT NULL,
    "ownerAddress" TEXT,
    "builderTokenHash" TEXT,
    "sharedAs" TEXT,
    "thesis" TEXT NOT NULL,
    "readingJson" TEXT NOT NULL,
    "correctionsJson" TEXT,
    "storedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "CoilReading_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "CoilReading_manifestHash_storedAt_idx" ON "CoilReading"("manifestHash", "storedAt");

-- CreateIndex
CREATE INDEX "CoilReading_builderTokenHash_idx" ON "CoilReading"("builderTokenHash");

-- CreateIndex
CREATE INDEX "CoilReading_sharedAs_idx" ON "CoilReading"("sharedAs");

