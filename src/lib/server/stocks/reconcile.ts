/**
 * `POST /api/stocks/reconcile-receipt`: moves a receipt only on proof, by the proof rule
 * (proof/stock-trade.ts) for a transaction, or by the partner's word for its job.
 */
import type { BrokerChainClient } from '../chain-client';
import type { ServerTime } from '../clock';
import { SvcError } from '../errors';
import { BROKER_CHAIN_ID, USDG } from '../registry';
import { extractTxHashes } from '../vaults/mode-b';
import { readPartnerJob } from '../partner/agent-api';
import { judgeTransaction, type Judgement, type PlanTerms, type SenderFlows } from '../proof/stock-trade';
import * as usdg from '../../shared/usdg';
import { bindingOutranks, type ClaimStanding, type ProofBinding, type ProofCheck } from '../proof/rule';
import { executorsOf, notePartnerWallet, senderBinding } from './executor';
import { readTransactionProof, type ChainRead, type MinedTransaction } from './chain-proof';
import type { StockIntent } from './intent';
import { partnerEndpoint, STOCK_ERROR, type StockLaneConfig } from './lane-config';
import { publicReceipt, unknownReceipt } from './receipt-view';
import {
  chainProofTransition,
  jobStatusTransition,
  proofTakenTransition,
  REASON,
  REASON_MEANING,
  type ChainVerdict,
  type PartnerJobStatus,
  type ReasonCode,
} from './status';
import {
  ProofTransactionTakenError,
  type ProofTakeOver,
  type ReceiptEventInput,
  type StockReceiptRecord,
  type StockReceiptStore,
} from './store';
import { jobChange, transition, type ChangeFor } from './transition';

// Reconcile

export interface ReconcileInput {
  txHash?: string;
  jobId?: string;
  planHash?: string;
}

export interface ReconcileDeps {
  config: StockLaneConfig;
  store: StockReceiptStore;
  /** The answer's clock (`checkedAt`). */
  now: Date;
  /** The server's clock: the time of every stored change. */
  serverTime: ServerTime;
  /** The client of chain 4663, or null when no RPC is configured. */
  chain: BrokerChainClient | null;
  /** Injectable for tests (the real one reads through `chain`). */
  readProof?: (txHash: string) => Promise<ChainRead>;
}

/** The terms of a stored plan that a transaction must match. */
function planTermsOf(record: StockReceiptRecord): PlanTerms {
  const intent = JSON.parse(record.intentJson) as StockIntent;
  return {
    side: intent.side,
    targetTokenAddress: record.targetTokenAddress,
    usdgAddress: USDG.address,
    inputUnits: usdg.units(intent.inputAmount),
    maxSlippageBps: intent.maxSlippageBps,
    firstPreparedAt: record.firstPreparedAt,
    executors: executorsOf(record),
  };
}

interface ChainJudgement {
  verdict: ChainVerdict;
  checks: ProofCheck[];
  flows: SenderFlows | null;
  /** How the transaction is tied to this plan (null when no mined transaction was read). */
  binding: ProofBinding | null;
  /** Where the claim stands against the transaction's holder, when it proves the plan. */
  standing: ClaimStanding | null;
  /** The plan that held the transaction by a caller claim, when this claim takes it over. */
  takeOverFrom: string | null;
  partnerErrorCode?: string;
  /** The receipt as read after the partner's answer (which may have named its executor). */
  record: StockReceiptRecord;
}

function verdictOf(tx: MinedTransaction, judged: Judgement): ChainVerdict {
  if (judged.outcome === 'no_proof') return { kind: 'no_proof', txHash: tx.txHash, blockNumber: tx.blockNumber, reason: judged.reason };
  return { kind: judged.outcome, txHash: tx.txHash, blockNumber: tx.blockNumber };
}

/**
 * Whether the partner's answer for the plan's own job names the transaction: what makes it a
 * `partner_job` binding. A plan without a job, a lane that is off or a failed read names
 * nothing. A wallet the answer reports is recorded as the plan's executor.
 */
async function partnerJobNames(record: StockReceiptRecord, txHash: string, deps: ReconcileDeps) {
  const endpoint = partnerEndpoint(deps.config);
  if (!record.jobId || !endpoint) return { named: false, record };
  try {
    const job = await readPartnerJob(endpoint, record.jobId);
    const named: string[] = [...job.transactionHashes, ...extractTxHashes(job.response), ...extractTxHashes(job.error)];
    return { named: named.includes(txHash), record: await notePartnerWallet(deps.store, record, job) };
  } catch (error) {
    if (!(error instanceof SvcError)) throw error;
    return { named: false, partnerErrorCode: error.code, record };
  }
}

/**
 * Whether a transaction read from chain 4663 is this plan's trade, by the proof rule
 * (proof/stock-trade.ts). The plan's claim on it is a `partner_job` binding when the partner's
 * answer for the plan's job names it, an `executor_wallet` binding when its sender is the
 * plan's known executor, else a caller's claim; the store says who holds it.
 */
async function judgeChainRead(proof: ChainRead['proof'], found: StockReceiptRecord, deps: ReconcileDeps): Promise<ChainJudgement> {
  if (proof.kind !== 'transaction')
    return { verdict: proof, checks: [], flows: null, binding: null, standing: null, takeOverFrom: null, record: found };
  const { named, partnerErrorCode, record } = await partnerJobNames(found, proof.txHash, deps);
  const binding: ProofBinding = named ? 'partner_job' : senderBinding(record, proof.from);
  const holder = await deps.store.holderOf(proof.txHash);
  const judged = judgeTransaction(proof, planTermsOf(record), { subject: { lane: 'stock_plan', id: record.id }, binding, holder });
  const standing = judged.outcome === 'no_proof' ? null : judged.standing;
  return {
    verdict: verdictOf(proof, judged),
    checks: judged.checks,
    flows: judged.flows,
    binding,
    standing,
    takeOverFrom: standing === 'takes_over' ? holder!.id : null,
    partnerErrorCode,
    record,
  };
}

/** The history event of a reconciliation that read `verdict`'s transaction. */
function reconcileEvent(jobId: string | null, verdict: ChainVerdict, reason: ReasonCode | undefined, at: ServerTime): ReceiptEventInput {
  return {
    trigger: 'reconcile',
    reason: reason ?? null,
    jobId,
    partnerJobStatus: null,
    txHash: verdict.txHash,
    blockNumber: 'blockNumber' in verdict ? verdict.blockNumber : null,
    chainId: BROKER_CHAIN_ID,
    at,
  };
}

/** The plan that loses a weakly claimed transaction to another plan's stronger claim (`by`). */
function proofTakenFrom(receiptId: string, verdict: ChainVerdict, at: ServerTime, by: ProofBinding): ProofTakeOver {
  return {
    receiptId,
    by,
    changeFor: (loser) => {
      const t = proofTakenTransition(by);
      return {
        change: { status: t.next, statusReason: t.reason ?? null, txHash: null, blockNumber: null },
        event: reconcileEvent(loser.jobId, verdict, t.reason, at),
      };
    },
  };
}

/** The change a chain verdict makes to a receipt, or null when nothing new is to be written. */
function chainChange(
  current: StockReceiptRecord,
  judged: Pick<ChainJudgement, 'verdict' | 'binding' | 'takeOverFrom'>,
  at: ServerTime,
  onReason: (reason: ReasonCode | undefined) => void,
): ReturnType<ChangeFor> {
  const { verdict } = judged;
  const t = chainProofTransition(current.status, current.txHash, verdict, { claim: judged.binding, held: current.proofBinding });
  onReason(t.reason);
  if (verdict.kind === 'unverified') return null;
  const provenByThis = (verdict.kind === 'confirmed' || verdict.kind === 'reverted') && t.reason === undefined;
  const newProof = provenByThis && (current.txHash !== verdict.txHash || current.blockNumber !== verdict.blockNumber);
  // Nothing new: the receipt is not written.
  if (t.next === current.status && !newProof) return null;
  return {
    change: {
      status: t.next,
      statusReason: t.reason ?? null,
      ...(provenByThis ? { txHash: verdict.txHash, blockNumber: verdict.blockNumber, proofBinding: judged.binding ?? 'caller_claim' } : {}),
    },
    event: reconcileEvent(current.jobId, verdict, t.reason, at),
    ...(provenByThis && judged.takeOverFrom && current.txHash !== verdict.txHash
      ? { takeOver: proofTakenFrom(judged.takeOverFrom, verdict, at, judged.binding ?? 'caller_claim') }
      : {}),
  };
}

async function findReceipt(input: ReconcileInput, store: StockReceiptStore): Promise<StockReceiptRecord> {
  if (!input.planHash && !input.jobId && !input.txHash) {
    throw new SvcError(STOCK_ERROR.RECONCILE_REFERENCE_REQUIRED, 'Name the receipt: give planHash or jobId (and txHash as proof)', {
      issues: [{ code: STOCK_ERROR.RECONCILE_REFERENCE_REQUIRED, message: 'planHash, jobId or a recorded txHash is required' }],
    });
  }
  const byPlan = input.planHash ? await store.findByPlanHash(input.planHash.toLowerCase()) : null;
  const byJob = input.jobId ? await store.findByJobId(input.jobId) : null;
  if (input.planHash && !byPlan) throw unknownReceipt('planHash');
  if (input.jobId && !byJob) throw unknownReceipt('jobId');
  if (byPlan && byJob && byPlan.id !== byJob.id) {
    throw new SvcError(STOCK_ERROR.RECEIPT_REFERENCE_MISMATCH, 'planHash and jobId name two different receipts', {
      issues: [{ code: STOCK_ERROR.RECEIPT_REFERENCE_MISMATCH, message: 'the job belongs to another plan', path: 'jobId' }],
    });
  }
  const found = byPlan ?? byJob ?? (input.txHash ? await store.findByTxHash(input.txHash) : null);
  if (!found) throw unknownReceipt('txHash');
  return found;
}

/**
 * POST /api/stocks/reconcile-receipt. With a txHash: the chain decides (after proving it is
 * chain 4663). Without one: the recorded partner job is read. A read that fails proves
 * nothing and changes nothing; a trusted read that finds no proof returns the receipt to
 * `prepared`, except that on-chain proof is never undone by the absence of proof.
 */
export async function reconcileStockReceipt(rawInput: ReconcileInput, deps: ReconcileDeps) {
  const input = { ...rawInput, txHash: rawInput.txHash?.toLowerCase() };
  const record = await findReceipt(input, deps.store);
  const previousStatus = record.status;
  let reason: ReasonCode | undefined;
  let chainIdVerified: boolean | null = null;
  let source: 'chain' | 'partner_job' | 'none';
  let partnerErrorCode: string | undefined;
  let proofChecks: ProofCheck[] = [];
  let senderFlows: SenderFlows | null = null;
  let updated: StockReceiptRecord;

  if (input.txHash) {
    source = 'chain';
    const read = await (deps.readProof ?? ((tx) => readTransactionProof(deps.chain, tx)))(input.txHash);
    chainIdVerified = read.chainIdVerified;
    const judged = await judgeChainRead(read.proof, record, deps);
    const start = judged.record;
    proofChecks = judged.checks;
    senderFlows = judged.flows;
    partnerErrorCode = judged.partnerErrorCode;
    const apply = (verdict: ChainVerdict, takeOverFrom: string | null) =>
      transition(deps.store, start, (current) =>
        chainChange(current, { verdict, binding: judged.binding, takeOverFrom }, deps.serverTime, (r) => (reason = r)),
      );
    try {
      updated = await apply(judged.verdict, judged.takeOverFrom);
    } catch (error) {
      if (!(error instanceof ProofTransactionTakenError) || judged.verdict.kind === 'unverified' || judged.verdict.kind === 'not_found')
        throw error;
      // A concurrent reconciliation of another subject recorded this transaction first: the
      // database's unique key decided, and for this plan it is no proof.
      proofChecks = [
        ...judged.checks.filter((c) => c.check === 'mined_after_first_sight'),
        { check: 'not_proof_of_other_subject', passed: false },
      ];
      updated = await apply(
        { kind: 'no_proof', txHash: judged.verdict.txHash, blockNumber: judged.verdict.blockNumber, reason: REASON.TX_PROVES_OTHER_PLAN },
        null,
      );
    }
    // The plan already held this transaction by a weaker binding; its partner job or executor now ties it.
    if (
      judged.standing === 'own' &&
      judged.binding &&
      updated.proofBinding &&
      bindingOutranks(judged.binding, updated.proofBinding) &&
      updated.txHash
    ) {
      await deps.store.strengthenProofBinding(updated.id, updated.txHash, judged.binding);
      updated = (await deps.store.findByPlanHash(updated.planHash)) ?? updated;
    }
  } else if (record.jobId) {
    source = 'partner_job';
    const endpoint = partnerEndpoint(deps.config);
    if (!endpoint) {
      reason = REASON.PARTNER_LANE_NOT_ENABLED;
      updated = record;
    } else {
      let partnerStatus: PartnerJobStatus | undefined;
      let start = record;
      try {
        const job = await readPartnerJob(endpoint, record.jobId);
        partnerStatus = job.partnerStatus;
        start = await notePartnerWallet(deps.store, record, job);
      } catch (error) {
        if (!(error instanceof SvcError)) throw error;
        reason = REASON.PARTNER_JOB_READ_FAILED;
        partnerErrorCode = error.code;
      }
      updated = partnerStatus
        ? await transition(deps.store, start, (current) => jobChange(current, partnerStatus, 'reconcile', deps.serverTime))
        : start;
      if (partnerStatus) reason = jobStatusTransition(updated.status, partnerStatus).reason;
    }
  } else {
    source = 'none';
    updated = await transition(deps.store, record, (current) => {
      if (current.status === 'prepared' || current.status === 'onchain_confirmed' || current.status === 'onchain_reverted') {
        reason = current.status === 'prepared' ? REASON.NO_PROOF_SUPPLIED : REASON.ONCHAIN_PROOF_KEPT;
        return null;
      }
      reason = REASON.NO_PROOF_SUPPLIED;
      return {
        change: { status: 'prepared', statusReason: REASON.NO_PROOF_SUPPLIED },
        event: {
          trigger: 'reconcile',
          reason: REASON.NO_PROOF_SUPPLIED,
          jobId: null,
          partnerJobStatus: null,
          txHash: null,
          blockNumber: null,
          chainId: null,
          at: deps.serverTime,
        },
      };
    });
  }

  return {
    receipt: publicReceipt(updated),
    reconciliation: {
      source,
      previousStatus,
      status: updated.status,
      moved: updated.status !== previousStatus,
      reason: reason ?? null,
      reasonMeaning: reason ? REASON_MEANING[reason] : null,
      partnerErrorCode: partnerErrorCode ?? null,
      chainIdVerified,
      expectedChainId: BROKER_CHAIN_ID,
      txHash: input.txHash ?? null,
      proofChecks,
      senderFlows,
      checkedAt: deps.now.toISOString(),
    },
    svcExecutesTrade: false as const,
  };
}
