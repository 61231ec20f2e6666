-- CreateTable
CREATE TABLE "TlogEntry" (
    "index" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "receiptRowId" TEXT NOT NULL,
    "receiptId" TEXT NOT NULL,
    "salt" TEXT NOT NULL,
    "entry" TEXT NOT NULL,
    "appendedAt" DATETIME NOT NULL
);

-- CreateIndex
CREATE UNIQUE INDEX "TlogEntry_receiptRowId_key" ON "TlogEntry"("receiptRowId");

