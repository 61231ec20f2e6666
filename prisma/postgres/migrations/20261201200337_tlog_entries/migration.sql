-- CreateTable
CREATE TABLE "TlogEntry" (
    "index" INTEGER NOT NULL,
    "receiptRowId" TEXT NOT NULL,
    "receiptId" TEXT NOT NULL,
    "salt" TEXT NOT NULL,
    "entry" TEXT NOT NULL,
    "appendedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "TlogEntry_pkey" PRIMARY KEY ("index")
);

-- CreateIndex
CREATE UNIQUE INDEX "TlogEntry_receiptRowId_key" ON "TlogEntry"("receiptRowId");

