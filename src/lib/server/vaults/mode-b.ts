/**
 * Mode B (interface 4.6): the operator's own partner wallet deposits through the partner's agent.
 * Valid only when that wallet is itself the depositor; never a path for a user's deposit.
 *
 * Gates, in this order: PARTNERBOT_DEPOSIT_EXECUTION_ENABLED (MODE_B_DISABLED),
 * OWNER_APPROVED_PARTNER_WALLET_DEPOSIT (OWNER_APPROVAL_REQUIRED), the server-only
 * PARTNER_API_KEY (PARTNER_KEY_MISSING), receiver = PARTNER_WALLET_ADDRESS
 * (RECEIVER_NOT_PARTNER_WALLET), then an exact `confirmPlanHash` of the rebuilt pack. When
 * all pass, exactly one prompt goes to the partner per plan (a plan is never submitted
 * twice) and the job is recorded; completion is never stored, only re-verified on chain.
 */
import { randomBytes } from 'node:crypto';
import { getAddress, type Hex } from 'viem';
import { parseIsoInstant, type RequestClocks } from '../clock';
import { SvcError } from '../errors';
import type { ChainReader } from './chain';
import { noTransactionYet, verifyVaultDeposit, type DepositVerification } from './completion';
import { closedModeBGates, modeBConfigOf, type ModeBGateSettings } from './mode-b-gates';
import { buildDepositPack, normalizePlanHash, validateReceiver, type DepositPack, type DepositPackResult } from './deposit-pack';
import { readPartnerJob, submitPartnerPrompt, type PartnerEndpoint, type PartnerJobStatus } from '../partner/agent-api';
import { resolveRailAVault, type RailAVault } from './registry';

export const MODE_B_JOB_PREFIX = 'bvd_';

export interface ModeBSettings extends ModeBGateSettings {
  partnerApiUrl?: string;
  partnerTimeoutMs: number;
}

export type JobSubmitState = 'submitting' | 'submitted' | 'submit_failed';

export interface VaultDepositJobRecord {
  id: string;
  planHash: string;
  vaultSlug: string;
  vaultAddress: string;
  receiver: string;
  amount: string;
  amountUnits: string;
  submitState: JobSubmitState;
  failureCode: string | null;
  partnerJobId: string | null;
  txHashes: string[];
  pack: DepositPack;
  createdAt: Date;
  updatedAt: Date;
}

/** Persistence of Mode B jobs (implemented over the database in db/vault-deposit-job-repository.ts). */
export interface VaultDepositJobStore {
  findById(id: string): Promise<VaultDepositJobRecord | null>;
  findByPlanHash(planHash: string): Promise<VaultDepositJobRecord | null>;
  /** Inserts the job; false when a job with the same planHash already exists. */
  reserve(job: VaultDepositJobRecord): Promise<boolean>;
  markSubmitted(id: string, partnerJobId: string, at: Date): Promise<void>;
  markFailed(id: string, failureCode: string, at: Date): Promise<void>;
  addTxHashes(id: string, hashes: string[], at: Date): Promise<void>;
}

function refuse(code: string, message: string, path?: string): never {
  throw new SvcError(code, message, { issues: [{ code, message, ...(path ? { path } : {}) }] });
}

/** The configuration gates, in the spec's order. The receiver gate follows in `submitModeBIntent`. */
export function checkModeBConfigGates(settings: ModeBSettings): void {
  const [closed] = closedModeBGates(modeBConfigOf(settings), 'config');
  if (closed) refuse(closed.code, closed.message);
}

export function checkReceiverIsPartnerWallet(settings: ModeBSettings, receiver: string): void {
  const [closed] = closedModeBGates(modeBConfigOf(settings), 'receiver');
  if (closed) refuse(closed.code, closed.message, 'receiver');
  const wallet = settings.partnerWalletAddress!;
  if (!/^0x[0-9a-fA-F]{40}$/.test(wallet) || getAddress(wallet) !== receiver) {
    refuse(
      'RECEIVER_NOT_PARTNER_WALLET',
      "Mode B is only for the operator's own partner wallet as depositor and receiver; this receiver is another address. Mode B is never a user-deposit path.",
      'receiver',
    );
  }
}

export function modeBPrompt(pack: DepositPack): string {
  return (
    `Approve ${pack.amount} USDG (${pack.amountUnits} units) to vault ${pack.vaultAddress} on the broker chain (chain id ${pack.chainId}), ` +
    `then call depositWithAcks(${pack.amountUnits}, ${pack.receiver}, ${pack.ackHashes.risk}, ${pack.ackHashes.jurisdiction}) on that vault from this wallet (${pack.receiver}). ` +
    'Do not call deposit(): it reverts. Reply with the transaction hashes.'
  );
}

export interface SubmitIntentInput {
  vaultId?: string;
  amountUsdg: unknown;
  receiver: unknown;
  expiresInSeconds?: unknown;
  /** The `generatedAt` of the pack being confirmed (the pack is rebuilt at that instant). */
  packGeneratedAt: string;
  confirmPlanHash: string;
}

export interface SubmitDeps extends RequestClocks {
  appOrigin: string;
  chain: ChainReader | null;
  settings: ModeBSettings;
  store: VaultDepositJobStore;
  newJobId?: () => string;
}

export function jobView(job: VaultDepositJobRecord) {
  return {
    id: job.id,
    kind: 'operator_partner_wallet_deposit' as const,
    submitState: job.submitState,
    failureCode: job.failureCode,
    partnerJobId: job.partnerJobId,
    planHash: job.planHash,
    vaultSlug: job.vaultSlug,
    vaultAddress: job.vaultAddress,
    receiver: job.receiver,
    amount: job.amount,
    amountUnits: job.amountUnits,
    createdAt: job.createdAt.toISOString(),
    userDepositPath: false as const,
  };
}

export async function submitModeBIntent(input: SubmitIntentInput, deps: SubmitDeps) {
  const { settings } = deps;
  checkModeBConfigGates(settings);
  const vault = resolveRailAVault(input.vaultId);
  const receiver = validateReceiver(input.receiver, vault);
  checkReceiverIsPartnerWallet(settings, receiver);

  const generatedAt = parseIsoInstant(input.packGeneratedAt);
  if (!generatedAt)
    refuse('PACK_GENERATED_AT_INVALID', "packGeneratedAt must be the pack's generatedAt (ISO 8601 with a zone)", 'packGeneratedAt');
  const built: DepositPackResult = await buildDepositPack(
    { vaultId: input.vaultId, amountUsdg: input.amountUsdg, receiver, expiresInSeconds: input.expiresInSeconds },
    { now: generatedAt, appOrigin: deps.appOrigin, chain: deps.chain },
  );
  const { pack } = built;
  if (normalizePlanHash(input.confirmPlanHash) !== pack.planHash) {
    refuse(
      'CONFIRM_PLAN_HASH_MISMATCH',
      'confirmPlanHash differs from the planHash of the pack rebuilt from this request: nothing is submitted',
      'confirmPlanHash',
    );
  }
  // An expiry is a check: the server's clock, never the caller's `nowIso`.
  if (deps.serverTime.getTime() > Date.parse(pack.expiresAt)) {
    refuse('PACK_EXPIRED', `The pack expired at ${pack.expiresAt}; prepare a new one`, 'packGeneratedAt');
  }
  if (!settings.partnerApiUrl) {
    refuse('PARTNER_NOT_CONFIGURED', 'The partner API address (PARTNER_API_URL) is not configured, so nothing can be submitted.');
  }
  const existing = await deps.store.findByPlanHash(pack.planHash);
  if (existing)
    refuse(
      'PLAN_ALREADY_SUBMITTED',
      `This plan was already submitted as job ${existing.id}; a plan is never submitted twice`,
      'confirmPlanHash',
    );

  const id = (deps.newJobId ?? (() => `${MODE_B_JOB_PREFIX}${randomBytes(12).toString('hex')}`))();
  const job: VaultDepositJobRecord = {
    id,
    planHash: pack.planHash,
    vaultSlug: vault.slug,
    vaultAddress: vault.address,
    receiver,
    amount: pack.amount,
    amountUnits: pack.amountUnits,
    submitState: 'submitting',
    failureCode: null,
    partnerJobId: null,
    txHashes: [],
    pack,
    createdAt: deps.serverTime,
    updatedAt: deps.serverTime,
  };
  if (!(await deps.store.reserve(job))) {
    refuse('PLAN_ALREADY_SUBMITTED', 'This plan is already being submitted; a plan is never submitted twice', 'confirmPlanHash');
  }
  const partner: PartnerEndpoint = {
    apiUrl: settings.partnerApiUrl!,
    apiKey: settings.partnerApiKey!,
    timeoutMs: settings.partnerTimeoutMs,
  };
  let partnerJobId: string;
  try {
    ({ jobId: partnerJobId } = await submitPartnerPrompt(partner, modeBPrompt(pack)));
  } catch (error) {
    // The prompt may or may not have reached the partner: the plan is spent either way, so a
    // retry needs a fresh pack rather than risking a second deposit.
    await deps.store.markFailed(id, error instanceof SvcError ? error.code : 'PARTNER_HTTP_ERROR', deps.serverTime);
    throw error;
  }
  await deps.store.markSubmitted(id, partnerJobId, deps.serverTime);
  const submitted = { ...job, submitState: 'submitted' as const, partnerJobId };
  return {
    job: jobView(submitted),
    verification: noTransactionYet(
      { vault },
      deps.answerTime,
      "No transaction hash is known yet: the partner job is pending and a job is never proof. The deposit is complete only when the chain shows the vault's Deposit event.",
    ),
    complete: false as const,
    pack,
  };
}

export interface StatusDeps extends RequestClocks {
  chain: ChainReader | null;
  settings: ModeBSettings;
  store: VaultDepositJobStore;
}

export type PartnerJobView =
  | { state: 'read'; status: PartnerJobStatus; statusIsProof: false; note: string }
  | { state: 'unknown'; status: null; statusIsProof: false; note: string };

/**
 * A Mode B job's status: the partner's job is polled for its status and for transaction
 * hashes it mentions; each candidate hash (and one given by the caller) is verified on chain.
 * `complete` is true only for a confirmed vault deposit for the job's receiver and amount.
 */
export async function modeBJobStatus(jobId: string, extraTxHash: Hex | undefined, deps: StatusDeps) {
  const job = await deps.store.findById(jobId);
  if (!job) refuse('DEPOSIT_JOB_NOT_FOUND', 'No Mode B deposit job has this id', 'jobId');
  const vault: RailAVault = resolveRailAVault(job.vaultSlug);

  let partnerJob: PartnerJobView;
  let fromPartner: string[] = [];
  const { partnerApiUrl, partnerApiKey } = deps.settings;
  if (!job.partnerJobId) {
    partnerJob = {
      state: 'unknown',
      status: null,
      statusIsProof: false,
      note: `The job was not accepted by the partner (${job.submitState}${job.failureCode ? `: ${job.failureCode}` : ''}).`,
    };
  } else if (!partnerApiUrl || !partnerApiKey) {
    partnerJob = {
      state: 'unknown',
      status: null,
      statusIsProof: false,
      note: 'The partner API is not configured, so the partner job was not polled.',
    };
  } else {
    try {
      const polled = await readPartnerJob(
        { apiUrl: partnerApiUrl, apiKey: partnerApiKey, timeoutMs: deps.settings.partnerTimeoutMs },
        job.partnerJobId,
      );
      fromPartner = extractTxHashes(polled.response);
      partnerJob = {
        state: 'read',
        status: polled.partnerStatus,
        statusIsProof: false,
        note:
          polled.partnerStatus === 'completed'
            ? "The partner reports the job as completed (unconfirmed): that is the partner's word, not proof."
            : `The partner reports the job as ${polled.partnerStatus}; a job status is never proof.`,
      };
    } catch (error) {
      partnerJob = {
        state: 'unknown',
        status: null,
        statusIsProof: false,
        note: `The partner job could not be polled (${error instanceof SvcError ? error.code : 'PARTNER_HTTP_ERROR'}).`,
      };
    }
  }
  const fresh = fromPartner.filter((h) => !job.txHashes.includes(h));
  if (fresh.length) await deps.store.addTxHashes(job.id, fresh, deps.serverTime);
  const candidates = [...new Set([...(extraTxHash ? [extraTxHash.toLowerCase()] : []), ...job.txHashes, ...fromPartner])] as Hex[];

  const expectation = { vault, receiver: getAddress(job.receiver), amountUnits: BigInt(job.amountUnits) };
  let verification: DepositVerification = noTransactionYet(
    expectation,
    deps.answerTime,
    'No transaction hash is known for this job yet: nothing on chain proves a deposit, so it is not complete.',
  );
  for (const hash of candidates) {
    const checked = await verifyVaultDeposit(deps.chain, hash, expectation, deps.answerTime);
    verification = checked;
    if (checked.confirmedVaultDeposit) break;
  }
  return {
    kind: 'partner-job' as const,
    jobId: job.id,
    job: jobView(job),
    partnerJob,
    txHashCandidates: candidates,
    verification,
    complete: verification.confirmedVaultDeposit,
  };
}

/** A raw transaction hash: reconcile it on chain against the vault (and the receiver and amount when given). */
export async function reconcileDepositTx(
  txHash: Hex,
  expected: { vaultId?: string; receiver?: unknown; amountUsdg?: unknown },
  deps: { now: Date; chain: ChainReader | null },
  parseAmount: (v: unknown) => bigint,
) {
  const vault = resolveRailAVault(expected.vaultId);
  const receiver = expected.receiver === undefined ? undefined : validateReceiver(expected.receiver, vault);
  const amountUnits = expected.amountUsdg === undefined ? undefined : parseAmount(expected.amountUsdg);
  const verification = await verifyVaultDeposit(deps.chain, txHash, { vault, receiver, amountUnits }, deps.now);
  return { kind: 'tx-reconcile' as const, txHash: txHash.toLowerCase(), verification, complete: verification.confirmedVaultDeposit };
}

/** Transaction hashes mentioned in a partner's text: candidates to verify on chain, never proof by themselves. */
export function extractTxHashes(text: string | undefined): Hex[] {
  if (!text) return [];
  const found = text.match(/(?<![0-9a-zA-Z])0x[0-9a-fA-F]{64}(?![0-9a-fA-F])/g) ?? [];
  return [...new Set(found.map((h) => h.toLowerCase() as Hex))];
}
