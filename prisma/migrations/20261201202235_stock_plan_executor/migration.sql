-- AlterTable
ALTER TABLE "StockReceipt" ADD COLUMN "partnerWallet" TEXT;
ALTER TABLE "StockReceipt" ADD COLUMN "sessionWallet" TEXT;

