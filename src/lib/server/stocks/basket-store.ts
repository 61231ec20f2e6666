/**
 * What the basket use cases need from persistence (Prisma: db/stock-basket-repository.ts). A
 * basket is its hash and its ordered legs; each leg's state lives in its plan's receipt.
 */
import type { ServerTime } from '../clock';

export interface StoredBasketLeg {
  ticker: string;
  tokenAddress: string;
  weightBps: number;
  amountUsdg: string;
  planHash: string;
}

export interface StockBasketRecord {
  basketHash: string;
  generatedAt: Date;
  totalAmountUsdg: string;
  legs: StoredBasketLeg[];
  createdAt: ServerTime;
}

export interface StockBasketStore {
  find(basketHash: string): Promise<StockBasketRecord | null>;
  /** Stores the basket unless its hash is stored already (the hash names the legs, so the row never changes). */
  ensure(basket: StockBasketRecord): Promise<void>;
}
