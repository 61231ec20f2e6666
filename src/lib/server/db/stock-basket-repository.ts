/** Prisma persistence of stock baskets (the StockBasketStore of stocks/basket-store.ts). */
import { storedServerTime } from '../clock';
import type { StockBasketRecord, StockBasketStore, StoredBasketLeg } from '../stocks/basket-store';
import { getDb } from './client';
import { isUniqueViolation } from './unique-violation';

export class PrismaStockBasketStore implements StockBasketStore {
  async find(basketHash: string): Promise<StockBasketRecord | null> {
    const row = await getDb().stockBasket.findUnique({ where: { basketHash } });
    if (!row) return null;
    return {
      basketHash: row.basketHash,
      generatedAt: row.generatedAt,
      totalAmountUsdg: row.totalAmountUsdg,
      legs: JSON.parse(row.legsJson) as StoredBasketLeg[],
      createdAt: storedServerTime(row.createdAt),
    };
  }

  async ensure(basket: StockBasketRecord): Promise<void> {
    try {
      await getDb().stockBasket.create({
        data: {
          basketHash: basket.basketHash,
          generatedAt: basket.generatedAt,
          totalAmountUsdg: basket.totalAmountUsdg,
          legsJson: JSON.stringify(basket.legs),
          createdAt: basket.createdAt,
        },
      });
    } catch (error) {
      // The same basket planned again (or concurrently): the hash names the same legs.
      if (!isUniqueViolation(error)) throw error;
    }
  }
}

let store: PrismaStockBasketStore | undefined;

export function stockBasketStore(): PrismaStockBasketStore {
  store ??= new PrismaStockBasketStore();
  return store;
}
