-- CreateTable
CREATE TABLE "CoilReading" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "receiptId" TEXT NOT NULL,
    "manifestHash" TEXT NOT NULL,
    "ownerAddress" TEXT,
    "builderTokenHash" TEXT,
    "sharedAs" TEXT,
    "thesis" TEXT NOT NULL,
    "readingJson" TEXT NOT NULL,
    "correctionsJson" TEXT,
    "storedAt" DATETIME NOT NULL
);

-- CreateIndex
CREATE INDEX "CoilReading_manifestHash_storedAt_idx" ON "CoilReading"("manifestHash", "storedAt");

-- CreateIndex
CREATE INDEX "CoilReading_builderTokenHash_idx" ON "CoilReading"("builderTokenHash");

-- CreateIndex
CREATE INDEX "CoilReading_sharedAs_idx" ON "CoilReading"("sharedAs");

