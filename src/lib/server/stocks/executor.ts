/**
 * Who trades for a plan (docs/proof-rule.md "Bindings"): the wallet of the signed-in session
 * that prepared or submitted it, and the wallet its partner job reports. When either is known,
 * only a trade sent by one of them, or named by the plan's partner job, proves the plan; when
 * neither is, a proof is a match by token, amount and time (`caller_claim`), and says so.
 */
import { getAddress } from 'viem';
import { SvcError } from '../errors';
import type { PartnerJob } from '../partner/agent-api';
import type { ProofBinding } from '../proof/rule';
import { STOCK_ERROR } from './lane-config';
import type { StockReceiptRecord, StockReceiptStore } from './store';

/** A session's wallet as a plan records it (checksummed), or null. */
export function sessionExecutor(wallet: string | null | undefined): string | null {
  return wallet ? getAddress(wallet) : null;
}

/** The plan's known executors, checksummed (empty: none known). */
export function executorsOf(record: Pick<StockReceiptRecord, 'sessionWallet' | 'partnerWallet'>): string[] {
  return [record.sessionWallet, record.partnerWallet].filter((w): w is string => w !== null);
}

/** How a transaction sent by `sender` is bound to the plan, when its partner job does not name it. */
export function senderBinding(record: Pick<StockReceiptRecord, 'sessionWallet' | 'partnerWallet'>, sender: string): ProofBinding {
  return executorsOf(record).includes(getAddress(sender)) ? 'executor_wallet' : 'caller_claim';
}

/** The public form: who is known to trade for the plan, and from where the service knows it. */
export function publicExecutor(record: Pick<StockReceiptRecord, 'sessionWallet' | 'partnerWallet'>) {
  return {
    executorKnown: executorsOf(record).length > 0,
    executors: [
      ...(record.sessionWallet ? [{ address: record.sessionWallet, source: 'siwe_session' as const }] : []),
      ...(record.partnerWallet ? [{ address: record.partnerWallet, source: 'partner_job' as const }] : []),
    ],
  };
}

/**
 * A signed-in session that prepares or submits a plan another wallet's session already holds:
 * refused, so a plan's executor is never replaced (a plan hash names the intent and its
 * `nowIso`, so a fresh `nowIso` gives the caller a plan of their own).
 */
export function assertSessionMayUse(record: StockReceiptRecord, sessionWallet: string | null): void {
  if (!sessionWallet || !record.sessionWallet || record.sessionWallet === sessionWallet) return;
  throw new SvcError(
    STOCK_ERROR.PLAN_EXECUTOR_MISMATCH,
    "This plan was prepared by another wallet's session; nothing was recorded or sent",
    {
      issues: [
        {
          code: STOCK_ERROR.PLAN_EXECUTOR_MISMATCH,
          message: 'prepare the intent again with another nowIso (or none) for a plan of your own',
          path: 'nowIso',
        },
      ],
    },
  );
}

/** Records the wallet the partner job reports as the plan's executor (the first one reported stays). */
export async function notePartnerWallet(store: StockReceiptStore, record: StockReceiptRecord, job: Pick<PartnerJob, 'walletAddress'>) {
  if (!job.walletAddress || record.partnerWallet) return record;
  await store.recordPartnerWallet(record.id, job.walletAddress);
  return (await store.findByPlanHash(record.planHash)) ?? record;
}
