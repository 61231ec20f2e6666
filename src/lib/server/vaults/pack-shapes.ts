/**
 * The zod shapes of the deposit pack's request and result (interface 2.10, 4.6), with the pack:
 * the vault routes, the partnerbot routes and the paid x402 deposit-pack service validate and
 * document the same request and the same answer of `buildDepositPack`.
 */
import { z } from 'zod';

export const addressShape = z.string().regex(/^0x[0-9a-fA-F]{40}$/);
export const hexShape = z.string().regex(/^0x[0-9a-fA-F]*$/);
export const bytes32Shape = z.string().regex(/^0x[0-9a-fA-F]{64}$/);

/**
 * Hex typed as viem's `0x${string}` (Address, Hex), so a domain type with viem's types can be
 * its schema's inferred type (the pack, the deposit verification); the JSON schema is the same pattern as the plain string shapes.
 */
export const address0x = z.templateLiteral(['0x', z.string().regex(/^[0-9a-fA-F]{40}$/)]);
export const hex0x = z.templateLiteral(['0x', z.string().regex(/^[0-9a-fA-F]*$/)]);
export const bytes32_0x = z.templateLiteral(['0x', z.string().regex(/^[0-9a-fA-F]{64}$/)]);

/** The deposit pack, declared once: `DepositPack` (deposit-pack.ts) is its inferred type. */
export const packShape = z
  .object({
    packVersion: z.literal('partnerbot-vault-deposit-1.0.0'),
    mode: z.literal('A'),
    vaultSlug: z.string(),
    vaultAddress: address0x,
    vaultRegistryVersion: z.string(),
    chain: z.string(),
    chainId: z.literal(4663),
    asset: z.literal('USDG'),
    assetAddress: address0x,
    assetDecimals: z.literal(6),
    amount: z.string().describe('The amount exactly as given (decimal string, at most 6 decimal places)'),
    amountUnits: z.string().describe('The amount in 6-decimal integer units'),
    maxAmount: z.string().describe('The most one pack may carry (10000 USDG)'),
    spender: address0x,
    approvalRequired: z.boolean(),
    approveCalldata: hex0x.describe('approve(vault, amountUnits) on USDG'),
    depositFunction: z.string(),
    depositCalldata: hex0x.describe('depositWithAcks(amountUnits, receiver, riskAck, jurisdictionAck) on the vault'),
    receiver: address0x,
    receiverMustBeDepositor: z.literal(true),
    ackHashes: z.object({ risk: bytes32_0x, jurisdiction: bytes32_0x }),
    generatedAt: z
      .string()
      .describe("Answer time: the request's nowIso when given, else the server's clock at the request; part of the hashed pack"),
    expiresAt: z
      .string()
      .describe(
        'Answer time: generatedAt plus the lifetime, part of the hashed pack. Never a deadline the server checks: a Mode B submission is accepted until submittableUntil (server clock, from its first sight of the pack)',
      ),
    planHash: z
      .string()
      .describe(
        '0x + sha256 hex of the canonical JSON of every other pack field: the Mode B confirmation token (bare hex is still accepted on input)',
      ),
    svcExecutesDeposit: z.literal(false),
    partnerbotSocialCommand: z.string(),
    depositLinkUrl: z.string(),
  })
  .meta({ id: 'VaultDepositPack' });

export const ackVerificationShape = z
  .object({
    source: z.enum(['onchain_eth_call', 'registry_pinned_copy']).describe('Which values the recomputed hashes were compared with'),
    readFrom: z.enum(['vault_ack_views', 'access_policy_get_vault_policy', 'vault_registry_copy']),
    readAddress: addressShape.nullable(),
    chainRead: z.boolean(),
    matches: z.literal(true),
    recomputed: z.object({ risk: bytes32Shape, jurisdiction: bytes32Shape }),
    pinned: z.object({ risk: bytes32Shape, jurisdiction: bytes32Shape }),
    checkedAt: z.string(),
    note: z.string(),
  })
  .meta({ id: 'AckVerification' });

export const modesShape = z
  .object({
    A: z.object({
      mode: z.literal('A'),
      title: z.string(),
      available: z.literal(true),
      executionVerifiable: z.literal(false),
      socialCommand: z.string(),
      note: z.string(),
    }),
    B: z.object({
      mode: z.literal('B'),
      title: z.string(),
      available: z.boolean(),
      userDepositPath: z.literal(false),
      route: z.string(),
      gates: z.array(z.string()),
      note: z.string(),
    }),
    C: z.object({
      mode: z.literal('C'),
      title: z.string(),
      available: z.literal(true),
      recommended: z.literal(true),
      depositLinkUrl: z.string(),
      note: z.string(),
    }),
  })
  .meta({ id: 'DepositModes' });

/** What `buildDepositPack` takes, as a request body (without `nowIso`, which the routes add). */
export const depositPackRequestShape = z.object({
  vaultId: z.string().max(100).optional().describe('A registered Rail A vault slug or address; default the V1 vault'),
  amountUsdg: z.string().max(64).describe('Decimal string, at most 6 decimal places, more than 0 and at most 10000'),
  receiver: z.string().max(128).describe("The depositor's own address (never the vault, the USDG token or the zero address)"),
  expiresInSeconds: z.number().optional().describe('Pack lifetime, an integer from 60 to 86400; default 900'),
});

/** What `buildDepositPack` answers. */
export const depositPackResultShape = z.object({
  pack: packShape,
  partnerbotSocialCommand: z.string(),
  depositLinkUrl: z.string(),
  modes: modesShape,
  ackVerification: ackVerificationShape,
  svcExecutesDeposit: z.literal(false),
});

/** Maps a failing input field to the rail's own code, so a wrong type gets the same code as a wrong value. */
export function vaultInputErrorCode(path: string): string {
  const field = path.split('.')[0];
  switch (field) {
    case 'amountUsdg':
    case 'amount':
      return 'AMOUNT_MALFORMED';
    case 'receiver':
      return 'RECEIVER_MALFORMED';
    case 'expiresInSeconds':
      return 'EXPIRY_OUT_OF_BOUNDS';
    case 'txHash':
      return 'TX_HASH_MALFORMED';
    case 'shares':
      return 'SHARES_MALFORMED';
    default:
      return 'INPUT_INVALID';
  }
}
