-- CreateTable
CREATE TABLE "StockBasket" (
    "basketHash" TEXT NOT NULL,
    "generatedAt" TIMESTAMP(3) NOT NULL,
    "totalAmountUsdg" TEXT NOT NULL,
    "legsJson" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "StockBasket_pkey" PRIMARY KEY ("basketHash")
);

