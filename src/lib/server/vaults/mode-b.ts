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
 *
 * A pack's lifetime counts from this server's first sight of it (stored by its planHash when
 * prepare-command builds it, or at its submission when it was never seen), never from its
 * `generatedAt`, which the caller's `nowIso` pins. A job is completed only by a deposit that
 * the proof rule binds to it (proof/rule.ts): mined after the job was created here, and the
 * proof of no other subject.
 */
import { randomBytes } from 'node:crypto';
import { getAddress, type Hex } from 'viem';
import { parseIsoInstant, serverTimeAfter, type RequestClocks, type ServerTime } from '../clock';
import { SvcError } from '../errors';
import { claimStanding, type ProofBinding, type ProofClaim, type ProofHolderReader } from '../proof/rule';
import type { ChainReader } from './chain';
import { noTransactionYet, verifyVaultDeposit, type DepositExpectation, type DepositVerification } from './completion';
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
  /** The server's clock when the job was created: a deposit mined before it is not this job's. */
  createdAt: ServerTime;
  updatedAt: ServerTime;
  /** The transaction the job holds as its proof, and how it is bound (null: none). */
  proof: { txHash: string; binding: ProofBinding } | null;
}

export interface BindJobProof {
  jobId: string;
  txHash: string;
  binding: ProofBinding;
  at: ServerTime;
  /** The job that holds the transaction by a caller claim this binding outranks. */
  takeOverFrom?: string;
}

/** Persistence of Mode B jobs (implemented over the database in db/vault-deposit-job-repository.ts). */
export interface VaultDepositJobStore extends ProofHolderReader {
  findById(id: string): Promise<VaultDepositJobRecord | null>;
  findByPlanHash(planHash: string): Promise<VaultDepositJobRecord | null>;
  /** Inserts the job; false when a job with the same planHash already exists. */
  reserve(job: VaultDepositJobRecord): Promise<boolean>;
  markSubmitted(id: string, partnerJobId: string, at: ServerTime): Promise<void>;
  markFailed(id: string, failureCode: string, at: ServerTime): Promise<void>;
  addTxHashes(id: string, hashes: string[], at: ServerTime): Promise<void>;
  /**
   * Binds the transaction to the job as its proof (releasing the job's other one); false when
   * another subject holds it (the unique key decides a race).
   */
  bindProof(request: BindJobProof): Promise<boolean>;
}

/** The server's first sight of each pack, by planHash. */
export interface PackSightingStore {
  /** Records `at` as the pack's first sight unless one is stored; returns the stored first sight. */
  firstSight(planHash: string, at: ServerTime): Promise<ServerTime>;
}

/** A pack's lifetime (`expiresInSeconds`), as its own two answer-time fields carry it. */
function packLifetimeMs(pack: Pick<DepositPack, 'generatedAt' | 'expiresAt'>): number {
  return Date.parse(pack.expiresAt) - Date.parse(pack.generatedAt);
}

/**
 * The last instant, on the server's clock, a Mode B submission of this pack is accepted: its
 * lifetime counted from this server's first sight of it, never from its `generatedAt` (the
 * caller's `nowIso`), so the pack's own `expiresAt` is not this deadline. The one rule the
 * submission checks and the prepare answers show (`submittableUntil`).
 */
export function submittableUntil(pack: Pick<DepositPack, 'generatedAt' | 'expiresAt'>, firstSeenAt: ServerTime): ServerTime {
  return serverTimeAfter(firstSeenAt, packLifetimeMs(pack));
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
  sightings: PackSightingStore;
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
  const firstSeenAt = await deps.sightings.firstSight(pack.planHash, deps.serverTime);
  const deadline = submittableUntil(pack, firstSeenAt);
  if (deps.serverTime.getTime() > deadline.getTime()) {
    refuse(
      'PACK_EXPIRED',
      `The pack expired at ${deadline.toISOString()}, ${packLifetimeMs(pack) / 1000} s after this server first saw it; prepare a new one`,
      'packGeneratedAt',
    );
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
    proof: null,
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
  /** The jobs, and the proof bindings of every lane (read) and of this job (written). */
  store: VaultDepositJobStore;
}

export type PartnerJobView =
  | { state: 'read'; status: PartnerJobStatus; statusIsProof: false; note: string }
  | { state: 'unknown'; status: null; statusIsProof: false; note: string };

/**
 * A Mode B job's status: the partner's job is polled for its status and for transaction
 * hashes it mentions; each candidate hash (and one given by the caller) is verified on chain
 * and judged by the proof rule. `complete` is true only for a confirmed vault deposit for the
 * job's receiver and amount, mined after the job was created here, that proves no other subject.
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
  const candidates = jobCandidates(job, fromPartner, extraTxHash);

  const expectation = { vault, receiver: getAddress(job.receiver), amountUnits: BigInt(job.amountUnits) };
  let verification: DepositVerification = noTransactionYet(
    expectation,
    deps.answerTime,
    'No transaction hash is known for this job yet: nothing on chain proves a deposit, so it is not complete.',
  );
  for (const { txHash, binding } of candidates) {
    verification = await proveJobDeposit(job, txHash, binding, expectation, deps);
    if (verification.confirmedVaultDeposit) break;
  }
  return {
    kind: 'partner-job' as const,
    jobId: job.id,
    job: jobView(job),
    partnerJob,
    txHashCandidates: candidates.map((c) => c.txHash),
    verification,
    complete: verification.confirmedVaultDeposit,
  };
}

/**
 * The hashes that may prove a job, each with its binding: those the job's partner job names
 * first (`partner_job`, preferred), then the one the job already holds, then the caller's.
 */
function jobCandidates(job: VaultDepositJobRecord, fromPartner: string[], extraTxHash: Hex | undefined) {
  const named = new Set([...job.txHashes, ...fromPartner].map((h) => h.toLowerCase()));
  const out: Array<{ txHash: Hex; binding: ProofBinding }> = [...named].map((h) => ({ txHash: h as Hex, binding: 'partner_job' }));
  const held = job.proof?.txHash.toLowerCase();
  if (held && !named.has(held)) out.push({ txHash: held as Hex, binding: job.proof!.binding });
  const extra = extraTxHash?.toLowerCase();
  if (extra && !out.some((c) => c.txHash === extra)) out.push({ txHash: extra as Hex, binding: 'caller_claim' });
  return out;
}

/**
 * Verifies one candidate against the job by the proof rule and, when it proves the job, binds
 * it (taking it from another job's caller claim when this one's partner job names it). A bind
 * that loses a race is no proof: the check that names it fails.
 */
async function proveJobDeposit(
  job: VaultDepositJobRecord,
  txHash: Hex,
  binding: ProofBinding,
  expectation: DepositExpectation,
  deps: StatusDeps,
): Promise<DepositVerification> {
  const holder = await deps.store.holderOf(txHash);
  const claim: ProofClaim = { subject: { lane: 'vault_deposit_job', id: job.id }, firstSeenAt: job.createdAt, binding, holder };
  const checked = await verifyVaultDeposit(deps.chain, txHash, expectation, deps.answerTime, claim);
  if (!checked.confirmedVaultDeposit) return checked;
  const standing = claimStanding(claim, holder);
  const held = standing === 'own' && holder!.binding === binding;
  if (
    held ||
    (await deps.store.bindProof({
      jobId: job.id,
      txHash,
      binding,
      at: deps.serverTime,
      takeOverFrom: standing === 'takes_over' ? holder!.id : undefined,
    }))
  )
    return checked;
  return {
    ...checked,
    confirmedVaultDeposit: false,
    proofBinding: null,
    proofChecks: [
      ...checked.proofChecks.filter((c) => c.check === 'mined_after_first_sight'),
      { check: 'not_proof_of_other_subject', passed: false },
    ],
    reason: 'The transaction is already the proof of another subject (one transaction proves at most one): it does not complete this job.',
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
