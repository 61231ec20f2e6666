/**
 * The stock-token lane (interface 4.5): partner status, prepare, submit, job poll, reconcile, a
 * read of a stored receipt, and a basket planned, submitted and read as one. The registry route of the family lives in routers/system/.
 * Domain: src/lib/server/stocks/; persistence: src/lib/server/db/stock-receipt-repository.ts.
 */
import { router } from '../../init';
import { partnerStatusProcedure } from './partner-status';
import { prepareProcedure } from './prepare';
import { planBasketProcedure } from './plan-basket';
import { submitBasketProcedure } from './submit-basket';
import { basketProcedure } from './basket';
import { generateCommandProcedure } from './generate-command';
import { submitPreviewProcedure } from './submit-preview';
import { submitProcedure } from './submit';
import { partnerJobProcedure } from './partner-job';
import { reconcileProcedure } from './reconcile';
import { receiptProcedure } from './receipt';

export const stocksRouter = router({
  partnerStatus: partnerStatusProcedure,
  prepare: prepareProcedure,
  planBasket: planBasketProcedure,
  submitBasket: submitBasketProcedure,
  basket: basketProcedure,
  generateCommand: generateCommandProcedure,
  submitPreview: submitPreviewProcedure,
  submit: submitProcedure,
  partnerJob: partnerJobProcedure,
  reconcile: reconcileProcedure,
  receipt: receiptProcedure,
});
