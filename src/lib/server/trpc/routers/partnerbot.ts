/**
 * The vault-deposit routes under /api/partnerbot (interface 4.6): prepare a Mode A pack, submit a
 * Mode B intent for the operator's own partner wallet, and read a deposit's status from the
 * chain. Family `autonomy` (the /api/partnerbot/* family of 4.1), stamped like every vault
 * response.
 */
import { z } from 'zod';
import { depositPackSightings, vaultDepositJobRepository } from '../../db/vault-deposit-job-repository';
import { SvcError } from '../../errors';
import { partnerbotSchema } from '../../autonomy/partnerbot-schema';
import { parseUsdgAmount } from '../../vaults/amount';
import { vaultServiceLaneOf } from '../../x402/lanes';
import { buildDepositCommand } from '../../vaults/deposit-pack';
import { importPartnerFeeClaim } from '../../vaults/fee-claim';
import { ackVerificationShape, addressShape, modesShape } from '../../vaults/pack-shapes';
import { buildArtifactReceipt } from '../../receipts/artifact';
import { chainAddressField } from '../../registry/symbol-space';
import { artifactReceiptOut } from './receipt-shapes';
import { checkModeBConfigGates, MODE_B_JOB_PREFIX, modeBJobStatus, reconcileDepositTx, submitModeBIntent } from '../../vaults/mode-b';
import type { SourceVerification } from '../../x402/constants';
import type { AckVerification } from '../../vaults/acks';
import type { DepositVerification } from '../../vaults/completion';
import { symbolSpaceAware } from '../error-map';
import { nowIsoField, publicProcedure, rest, router, stampedOutput } from '../init';
import {
  buildSightedDepositPack,
  bytes32Shape,
  depositPackRequestShape,
  depositPackResultShape,
  chainReaderFor,
  depositPackDepsFor,
  jobShape,
  modeBSettingsFor,
  packShape,
  vaultInputErrorCode,
  verificationShape,
  vaultChainBlocksFor,
} from '../vault-shapes';
import { chainBlockFields } from './x402-shapes';

export const packRequestShape = {
  ...depositPackRequestShape.shape,
  nowIso: nowIsoField,
};

export const prepareOutputShape = {
  ...depositPackResultShape.shape,
  ...chainBlockFields,
};

export function ackSource(ack: AckVerification): SourceVerification {
  return ack.chainRead
    ? {
        subject: 'vault ack-hash pins',
        source: `eth_call to ${ack.readAddress} on chain 4663 (${ack.readFrom})`,
        lastVerified: ack.checkedAt,
        method: 'live_chain_read',
      }
    : {
        subject: 'vault ack-hash pins',
        source: "the vault registry's pinned copy (no RPC configured; the chain was not read)",
        lastVerified: ack.checkedAt,
        method: 'registry_copy',
      };
}

export function verificationSource(v: DepositVerification): SourceVerification[] {
  return v.chainIdVerified
    ? [
        {
          subject: 'deposit proof',
          source: 'eth_chainId then eth_getTransactionReceipt on chain 4663',
          lastVerified: v.checkedAt,
          method: 'live_chain_read',
        },
      ]
    : [];
}

const statusInput = z.object({
  jobId: z.string().max(100).describe('A Mode B job id (bvd_...) or a raw deposit transaction hash (0x + 64 hex digits)'),
  txHash: bytes32Shape.optional().describe('For a bvd_ job: a transaction hash to check in addition to those the partner reports'),
  receiver: z
    .string()
    .max(128)
    .optional()
    .describe('For a raw hash: the receiver the Deposit event must credit (default: the transaction sender)'),
  amount: z.string().max(64).optional().describe('For a raw hash: the amount (decimal USDG) the Deposit event must carry'),
  vaultId: z.string().max(100).optional(),
  nowIso: nowIsoField,
});

const partnerbotSchemaOutput = stampedOutput({
  schemaVersion: z.string(),
  generatedAt: z.string(),
  routes: z.array(z.object({ method: z.string(), path: z.string(), workflow: z.string(), railId: z.string().nullable() })),
  autonomyModes: z.array(z.object({ mode: z.enum(['paper', 'preview', 'live_candidate']), default: z.boolean(), meaning: z.string() })),
  executionModeBounds: z
    .array(z.object({ executionMode: z.string(), highestAutonomyMode: z.enum(['paper', 'preview', 'live_candidate']) }))
    .describe('the highest autonomy mode each Coil executionMode allows: a path never goes further than its Coil'),
  modes: z.array(
    z.object({
      mode: z.enum(['A', 'B', 'C']),
      title: z.string(),
      description: z.string(),
      envGates: z.array(z.string()).describe('names of the environment gates, never their values'),
      refusalCodes: z.array(z.string()),
    }),
  ),
  mandatoryFuses: z
    .array(
      z.object({
        kind: z.string(),
        label: z.string(),
        unit: z.string(),
        min: z.number().nullable(),
        max: z.number().nullable(),
        requiredForCapsule: z.boolean(),
        widening: z.string(),
      }),
    )
    .describe('the mandatory autonomy fuses: POST /api/partnerbot/validate-autonomy applies exactly this list, with no defaults'),
  liveAutonomyAcknowledgment: z.object({
    description: z.string(),
    fields: z.array(z.object({ field: z.string(), statement: z.string(), type: z.literal('boolean'), mustBe: z.literal(true) })),
    timestampField: z.literal('acknowledgedAt'),
    maxAgeSeconds: z.number().int(),
    futureSkewSeconds: z.number().int(),
  }),
  x402CallPlan: z.object({
    lane: z.enum(['facilitator', 'partnerCloud']),
    laneReason: z.string(),
    settlesHere: z.boolean(),
    paymentChain: z.string(),
    chainId: z.number().int(),
    asset: z.string(),
    steps: z.array(z.string()),
    services: z.array(
      z.object({
        serviceName: z.string(),
        title: z.string(),
        route: z.string(),
        requirementsRoute: z.string(),
        priceUnits: z.string().describe('USDG 6-decimal units'),
        priceUsdg: z.string(),
        freeRoute: z.string().nullable(),
      }),
    ),
  }),
  truthRules: z.array(z.string()),
});

export const partnerbotRouter = router({
  schema: publicProcedure
    .meta({
      family: 'autonomy',
      openapi: rest(
        'GET',
        '/partnerbot/schema',
        'The autonomy path: routes, deposit modes, mandatory fuses, the live-autonomy acknowledgment shape and the x402 call plan',
        {
          description:
            'Descriptive only: the service executes nothing on this path. Mandatory fuses are the ones every capsule must carry (see POST /api/tools/risk-audit); the acknowledgment is a record of understanding (every field literally true), never a permission the service acts on; the x402 call plan names the lane selected now with its reason.',
        },
      ),
    })
    .input(z.object({ nowIso: nowIsoField }).optional())
    .output(partnerbotSchemaOutput)
    .query(({ ctx }) => partnerbotSchema({ lane: vaultServiceLaneOf(ctx.config.facilitator), now: ctx.answerTime })),

  prepareCommand: publicProcedure
    .meta({
      family: 'autonomy',
      tool: 'svc_prepare_partnerbot_vault_deposit',
      inputErrorCode: vaultInputErrorCode,
      openapi: rest(
        'POST',
        '/partnerbot/vault-deposit/prepare-command',
        'Build a Mode A vault deposit pack (approve + depositWithAcks calldata you sign yourself)',
        {
          description:
            "Validates the amount (at most 6 decimals, above 0, at most 10000 USDG) and the receiver (never the vault, the USDG token or the zero address), rejecting and never clamping, each with its own code. Recomputes both ack hashes and compares them with the vault's on-chain pins (eth_call when BROKER_CHAIN_RPC_URL is set; otherwise the registry copy, and `ackVerification.source` says so); a difference refuses the pack (409 ACK_HASH_MISMATCH). Mode C (the deposit widget link) is always included. The service never signs or sends anything: svcExecutesDeposit is false.",
        },
      ),
    })
    .input(z.object(packRequestShape))
    .output(stampedOutput(prepareOutputShape))
    .mutation(async ({ ctx, input }) => {
      const result = await buildSightedDepositPack(input, ctx.config, ctx);
      return { ...result, ...vaultChainBlocksFor(ctx.config, [ackSource(result.ackVerification)]) };
    }),

  depositCommand: publicProcedure
    .meta({
      family: 'autonomy',
      tool: 'svc_generate_partnerbot_deposit_command',
      inputErrorCode: vaultInputErrorCode,
      openapi: rest('POST', '/partnerbot/vault-deposit/command', 'The partnerbot deposit command alone (Mode A), with Mode C beside it', {
        description:
          'The social command a depositor sends to partnerbot (it ends "on broker"), for the same request, validation and ack-pin check as prepare-command (the same refusal codes), without the calldata. The partner\'s execution of a social command is unverified: the deposit counts only when GET /api/partnerbot/vault-deposit/status/{txHash} answers complete: true. Receipt kind vault_deposit_command.',
      }),
    })
    .input(z.object(packRequestShape))
    .output(
      stampedOutput({
        command: z.object({
          social: z.string(),
          venuePhrase: z.literal('on broker'),
          executor: z.literal('partner'),
          executionVerifiable: z.literal(false),
        }),
        vaultSlug: z.string(),
        vaultAddress: addressShape,
        amount: z.string(),
        amountUnits: z.string(),
        receiver: addressShape,
        ackHashes: z.object({ risk: bytes32Shape, jurisdiction: bytes32Shape }),
        planHash: z.string(),
        generatedAt: z.string(),
        expiresAt: z.string(),
        ackVerification: ackVerificationShape,
        depositLinkUrl: z.string(),
        modes: modesShape,
        completionRoute: z.string(),
        svcExecutesDeposit: z.literal(false),
        receipt: artifactReceiptOut,
        ...chainBlockFields,
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const command = await buildDepositCommand(input, depositPackDepsFor(ctx.config, ctx.answerTime));
      return {
        ...command,
        receipt: buildArtifactReceipt('vault_deposit_command', command, ctx.answerTime),
        ...vaultChainBlocksFor(ctx.config, [ackSource(command.ackVerification)]),
      };
    }),

  importFeeClaim: publicProcedure
    .meta({
      family: 'autonomy',
      tool: 'svc_import_partner_fee_claim',
      inputErrorCode: symbolSpaceAware('FEE_CLAIM_SHAPE'),
      openapi: rest(
        'POST',
        '/partnerbot/fee-claims/import',
        "Import a fee claim the partner reports, as a deterministic receipt (the partner's word, never proof of payment)",
        {
          description:
            "The claim: the partner's own reference, the amount in USDG 6-decimal units, the period, and the vault (vaultId) or the token (tokenAddress) it is for. Refused, never adjusted, with 422 FEE_CLAIM_INVALID and one issue per rule: AMOUNT_UNITS_INVALID, AMOUNT_UNITS_ABOVE_MAX, CURRENCY_UNSUPPORTED, PERIOD_START_INVALID, PERIOD_END_INVALID, PERIOD_EMPTY, PERIOD_NOT_ENDED (against the server clock), SUBJECT_REQUIRED, SUBJECT_AMBIGUOUS, VAULT_UNKNOWN, TOKEN_NOT_CANONICAL. Wrong types: 400 FEE_CLAIM_SHAPE. Nothing is stored or paid; status imported_unverified, proofOfPayment false. Receipt kind partner_fee_claim.",
        },
      ),
    })
    .input(
      z.object({
        claim: z
          .object({
            partnerReference: z
              .string()
              .regex(/^[A-Za-z0-9._:/-]{1,128}$/)
              .describe("the partner's own reference for the claim"),
            amountUnits: z.string().max(48).describe('USDG 6-decimal integer units, e.g. "1250000" for 1.25 USDG'),
            currency: z.string().max(16).optional().describe('USDG'),
            periodStart: z.string().max(40),
            periodEnd: z.string().max(40),
            vaultId: z.string().max(100).optional().describe('a registered vault slug or address'),
            tokenAddress: chainAddressField(/^0x[0-9a-fA-F]{40}$/, 'expected 0x followed by 40 hex digits')
              .optional()
              .describe('a canonical token address'),
          })
          .strict(),
        nowIso: nowIsoField,
      }),
    )
    .output(
      stampedOutput({
        claim: z.object({
          claimVersion: z.string(),
          partnerReference: z.string(),
          amount: z.object({ units: z.string(), usdg: z.string() }),
          currency: z.literal('USDG'),
          period: z.object({ start: z.string(), end: z.string() }),
          subject: z.object({
            kind: z.enum(['vault', 'token']),
            slug: z.string().nullable(),
            address: z.string(),
            ticker: z.string().nullable(),
          }),
          source: z.literal('partner_reported'),
          status: z.literal('imported_unverified'),
          proofOfPayment: z.literal(false),
          paymentVerified: z.literal(false),
        }),
        meaning: z.string(),
        receipt: artifactReceiptOut,
        generatedAt: z.string(),
      }),
    )
    .mutation(({ ctx, input }) => ({
      ...importPartnerFeeClaim(input.claim, { now: ctx.answerTime, serverTime: ctx.serverTime }),
      generatedAt: ctx.answerTime.toISOString(),
    })),

  submitIntent: publicProcedure
    .meta({
      family: 'autonomy',
      inputErrorCode: vaultInputErrorCode,
      openapi: rest(
        'POST',
        '/partnerbot/vault-deposit/submit-intent',
        "Mode B: submit one deposit prompt for the operator's own partner wallet",
        {
          description:
            'Refuses, in this order: 503 MODE_B_DISABLED (PARTNERBOT_DEPOSIT_EXECUTION_ENABLED), 403 OWNER_APPROVAL_REQUIRED (OWNER_APPROVED_PARTNER_WALLET_DEPOSIT), 503 PARTNER_KEY_MISSING (PARTNER_API_KEY), all three before any field of the request is looked at; then 400 for a missing or malformed field, 403 RECEIVER_NOT_PARTNER_WALLET (receiver must be PARTNER_WALLET_ADDRESS), 409 CONFIRM_PLAN_HASH_MISMATCH unless confirmPlanHash equals the planHash of the pack rebuilt from this request at packGeneratedAt, 409 PACK_EXPIRED (the lifetime counts from the first sight of the pack on this server, stored when prepare-command built it or at this submission, on the server clock: never from packGeneratedAt or nowIso). A plan is submitted at most once (409 PLAN_ALREADY_SUBMITTED). When every gate passes, one prompt goes to the partner and the answer is a bvd_ job with complete: false. Never a user-deposit path.',
        },
      ),
    })
    // The lane's configuration gates come before the input is validated: a lane that is off
    // says so before it asks for the fields only it needs.
    .use(({ ctx, next }) => {
      checkModeBConfigGates(modeBSettingsFor(ctx.config));
      return next();
    })
    .input(
      z.object({
        ...packRequestShape,
        confirmPlanHash: z.string().max(128).describe('The planHash of the pack being confirmed'),
        packGeneratedAt: z.string().max(64).describe('The generatedAt of that pack'),
      }),
    )
    .output(
      stampedOutput({ job: jobShape, verification: verificationShape, complete: z.literal(false), pack: packShape, ...chainBlockFields }),
    )
    .mutation(async ({ ctx, input }) => {
      const out = await submitModeBIntent(input, {
        answerTime: ctx.answerTime,
        serverTime: ctx.serverTime,
        appOrigin: ctx.config.origin,
        chain: chainReaderFor(ctx.config),
        settings: modeBSettingsFor(ctx.config),
        store: vaultDepositJobRepository,
        sightings: depositPackSightings,
      });
      return { ...out, ...vaultChainBlocksFor(ctx.config) };
    }),

  depositStatus: publicProcedure
    .meta({
      family: 'autonomy',
      tool: 'svc_reconcile_partnerbot_deposit_receipt',
      inputErrorCode: vaultInputErrorCode,
      openapi: rest(
        'GET',
        '/partnerbot/vault-deposit/status/{jobId}',
        'Deposit status from on-chain proof only (a bvd_ job or a raw transaction hash)',
        {
          description:
            "Re-reads the chain at every call: eth_chainId first, then the transaction receipt. `complete` is true exactly when a confirmed transaction to the vault emitted the vault's Deposit event for the receiver and amount (verification.confirmedVaultDeposit). A partner job status, interface text or an earlier answer never counts. verification.proofChecks lists the checks of the proof rule that ran (docs/proof-rule.md). For a bvd_ job the deposit must also be mined after the job was created on this server (mined_after_first_sight) and be the proof of no other job or stock plan (not_proof_of_other_subject): hashes the job's partner job names are tried first and bound as partner_job, a txHash given here is a caller_claim, and the deposit that completes the job is bound to it (verification.proofBinding). A raw hash answers kind `tx-reconcile` and binds nothing.",
        },
      ),
    })
    .input(statusInput)
    .output(
      stampedOutput({
        kind: z.enum(['partner-job', 'tx-reconcile']),
        jobId: z.string().optional(),
        txHash: bytes32Shape.optional(),
        job: jobShape.optional(),
        partnerJob: z
          .object({
            state: z.enum(['read', 'unknown']),
            status: z.enum(['pending', 'processing', 'completed', 'failed', 'cancelled']).nullable(),
            statusIsProof: z.literal(false),
            note: z.string(),
          })
          .optional(),
        txHashCandidates: z.array(bytes32Shape).optional(),
        verification: verificationShape,
        complete: z.boolean(),
        ...chainBlockFields,
      }),
    )
    .query(async ({ ctx, input }) => {
      const chain = chainReaderFor(ctx.config);
      if (input.jobId.startsWith(MODE_B_JOB_PREFIX)) {
        const out = await modeBJobStatus(input.jobId, input.txHash as `0x${string}` | undefined, {
          answerTime: ctx.answerTime,
          serverTime: ctx.serverTime,
          chain,
          settings: modeBSettingsFor(ctx.config),
          store: vaultDepositJobRepository,
        });
        return { ...out, ...vaultChainBlocksFor(ctx.config, verificationSource(out.verification)) };
      }
      if (/^0x[0-9a-fA-F]{64}$/.test(input.jobId)) {
        const out = await reconcileDepositTx(
          input.jobId as `0x${string}`,
          { vaultId: input.vaultId, receiver: input.receiver, amountUsdg: input.amount },
          { now: ctx.answerTime, chain },
          (v) => parseUsdgAmount(v, 'amount').units,
        );
        return { ...out, ...vaultChainBlocksFor(ctx.config, verificationSource(out.verification)) };
      }
      throw new SvcError(
        'DEPOSIT_STATUS_ID_INVALID',
        'The id is neither a Mode B job id (bvd_...) nor a transaction hash (0x + 64 hex digits)',
        {
          issues: [{ code: 'DEPOSIT_STATUS_ID_INVALID', message: 'expected bvd_... or 0x + 64 hex digits', path: 'jobId' }],
        },
      );
    }),
});
