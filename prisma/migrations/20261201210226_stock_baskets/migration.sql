-- CreateTable
CREATE TABLE "StockBasket" (
    "basketHash" TEXT NOT NULL PRIMARY KEY,
    "generatedAt" DATETIME NOT NULL,
    "totalAmountUsdg" TEXT NOT NULL,
    "legsJson" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL
);

