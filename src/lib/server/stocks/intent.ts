/**
 * Stock-trade intent (interface 2.8) and its validation. Validation rejects, it never clamps:
 * every broken rule is reported with its own issue code and nothing is rewritten into range.
 * The only normalisation is presentational and lossless (the token address checksummed, the
 * ticker upper-cased), so the same intent typed two ways names the same plan.
 */
import { z } from 'zod';
import { SvcError, type ErrorIssue } from '../errors';
import { BROKER_CHAIN_ID, checkCanonical, checksumAddress, type RegistryAsset } from '../registry';

export const STOCK_INTENT_MODES = ['personal_partner_trade', 'vault_operator_rebalance'] as const;
export type StockIntentMode = (typeof STOCK_INTENT_MODES)[number];

/** `buy` and `swap` spend USDG on the target token; `sell` names the USDG value of the target to sell. */
export const STOCK_INTENT_SIDES = ['buy', 'swap', 'sell'] as const;
export type StockIntentSide = (typeof STOCK_INTENT_SIDES)[number];

export const STOCK_INTENT_INPUT_ASSETS = ['USDG'] as const;
export const STOCK_INTENT_VENUES = ['broker'] as const;

/** Interface 8: stock slippage is capped at 500 bps. */
export const MAX_SLIPPAGE_BPS = 500;

/** USDG has 6 decimals, so an amount carries at most 6 decimal places. */
const DECIMAL_AMOUNT = /^(0|[1-9]\d{0,17})(\.\d{1,6})?$/;

/**
 * The intent as the caller sends it: types only, so every rule of `validateStockIntent` is
 * answered with its own issue code instead of a shape error. Unknown fields are rejected.
 * Declared once: the routes parse and document with it, `StockIntentInput` is its type.
 */
export const stockIntentInputSchema = z
  .object({
    mode: z.string().max(64).describe('personal_partner_trade or vault_operator_rebalance'),
    side: z.string().max(32).describe('buy, swap or sell'),
    targetSymbol: z.string().max(32).describe('ticker (display metadata; the address is the identity)'),
    targetTokenAddress: z
      .string()
      .max(128)
      .optional()
      .describe('the canonical token address on chain 4663 (required: a ticker alone is rejected)'),
    inputAsset: z.string().max(32).describe('USDG'),
    inputAmount: z.string().max(64).describe('USDG amount, a decimal string with at most 6 decimals, e.g. "25"'),
    maxSlippageBps: z.number().describe('integer, at most 500'),
    maxNotionalUsd: z.number().describe('at most PARTNER_STOCK_TRADE_MAX_NOTIONAL_USD (default 500)'),
    userAcknowledgedTokenizedExposureNotDirectStockOwnership: z.boolean().optional().describe('must be true'),
    userAcknowledgedPartnerExecutesTrade: z.boolean().optional().describe('must be true'),
    venue: z.string().max(32).optional().describe('broker; required on vault_operator_rebalance intents'),
    chainId: z.number().optional().describe('when given, must be 4663'),
  })
  .strict()
  .describe('Stock-trade intent. Unknown fields are rejected.');
export type StockIntentInput = z.infer<typeof stockIntentInputSchema>;

/** A validated intent, normalised; this exact object is what the plan hash covers. */
export const stockIntentSchema = z.object({
  mode: z.enum(STOCK_INTENT_MODES),
  side: z.enum(STOCK_INTENT_SIDES),
  targetSymbol: z.string(),
  targetTokenAddress: z.string(),
  inputAsset: z.literal('USDG'),
  inputAmount: z.string(),
  maxSlippageBps: z.number().int(),
  maxNotionalUsd: z.number(),
  userAcknowledgedTokenizedExposureNotDirectStockOwnership: z.literal(true),
  userAcknowledgedPartnerExecutesTrade: z.literal(true),
  venue: z.literal('broker').optional(),
  chainId: z.literal(BROKER_CHAIN_ID).optional(),
});
export type StockIntent = z.infer<typeof stockIntentSchema>;

export interface IntentRules {
  /** PARTNER_STOCK_TRADE_MAX_NOTIONAL_USD */
  maxNotionalUsd: number;
}

export interface ValidatedIntent {
  intent: StockIntent;
  target: RegistryAsset;
}

/** Issue codes, one per rule (documented in the README's stock-lane section). */
export const INTENT_ISSUE = {
  MODE_UNSUPPORTED: 'MODE_UNSUPPORTED',
  SIDE_UNSUPPORTED: 'SIDE_UNSUPPORTED',
  INPUT_ASSET_UNSUPPORTED: 'INPUT_ASSET_UNSUPPORTED',
  TARGET_SYMBOL_REQUIRED: 'TARGET_SYMBOL_REQUIRED',
  TARGET_ADDRESS_REQUIRED: 'TARGET_ADDRESS_REQUIRED',
  TARGET_ADDRESS_MALFORMED: 'TARGET_ADDRESS_MALFORMED',
  TICKER_ADDRESS_MISMATCH: 'TICKER_ADDRESS_MISMATCH',
  NON_CANONICAL_ADDRESS: 'NON_CANONICAL_ADDRESS',
  TARGET_NOT_STOCK_TOKEN: 'TARGET_NOT_STOCK_TOKEN',
  TARGET_SYMBOL_MISMATCH: 'TARGET_SYMBOL_MISMATCH',
  INPUT_AMOUNT_INVALID: 'INPUT_AMOUNT_INVALID',
  INPUT_AMOUNT_ABOVE_MAX_NOTIONAL: 'INPUT_AMOUNT_ABOVE_MAX_NOTIONAL',
  SLIPPAGE_INVALID: 'SLIPPAGE_INVALID',
  SLIPPAGE_ABOVE_CAP: 'SLIPPAGE_ABOVE_CAP',
  NOTIONAL_INVALID: 'NOTIONAL_INVALID',
  NOTIONAL_ABOVE_CAP: 'NOTIONAL_ABOVE_CAP',
  WRONG_CHAIN: 'WRONG_CHAIN',
  ACK_TOKENIZED_EXPOSURE_REQUIRED: 'ACK_TOKENIZED_EXPOSURE_REQUIRED',
  ACK_PARTNER_EXECUTES_REQUIRED: 'ACK_PARTNER_EXECUTES_REQUIRED',
  VENUE_UNSUPPORTED: 'VENUE_UNSUPPORTED',
  VENUE_REQUIRED_FOR_VAULT_REBALANCE: 'VENUE_REQUIRED_FOR_VAULT_REBALANCE',
} as const;

/** The top-level error code of a rejected intent (422, with one issue per broken rule). */
export const STOCK_INTENT_INVALID = 'STOCK_INTENT_INVALID';

/** The top-level code of a request whose `intent` has the wrong shape (400); any other field is INPUT_INVALID. */
export function stockIntentInputErrorCode(path: string): string {
  return path === 'intent' || path.startsWith('intent.') ? 'STOCK_INTENT_SHAPE' : 'INPUT_INVALID';
}

function issue(code: string, path: string, message: string): ErrorIssue {
  return { code, path: `intent.${path}`, message };
}

/** Checks the target token: the address is the identity, the ticker must agree with it. */
function targetIssues(input: StockIntentInput): { issues: ErrorIssue[]; target?: RegistryAsset } {
  const symbol = input.targetSymbol.trim();
  if (symbol === '') return { issues: [issue(INTENT_ISSUE.TARGET_SYMBOL_REQUIRED, 'targetSymbol', 'give the ticker of the target token')] };
  const address = input.targetTokenAddress?.trim();
  if (!address) {
    return {
      issues: [
        issue(
          INTENT_ISSUE.TARGET_ADDRESS_REQUIRED,
          'targetTokenAddress',
          'a ticker alone is not an identity: give the canonical token address of chain 4663 (GET /api/stocks/registry)',
        ),
      ],
    };
  }
  const check = checkCanonical(symbol, address);
  switch (check.status) {
    case 'malformed_address':
      return { issues: [issue(INTENT_ISSUE.TARGET_ADDRESS_MALFORMED, 'targetTokenAddress', 'expected 0x followed by 40 hex digits')] };
    case 'ticker_address_mismatch':
      return {
        issues: [
          issue(
            INTENT_ISSUE.TICKER_ADDRESS_MISMATCH,
            'targetTokenAddress',
            `${check.asset.ticker} is canonical only at ${check.asset.address}; a token with that ticker at another address is rejected`,
          ),
        ],
      };
    case 'unknown_address':
      return {
        issues: [
          issue(
            INTENT_ISSUE.NON_CANONICAL_ADDRESS,
            'targetTokenAddress',
            'no canonical stock or ETF token of chain 4663 lives at this address',
          ),
        ],
      };
    case 'canonical': {
      const asset = check.asset;
      if (asset.kind !== 'stock' && asset.kind !== 'etf') {
        return {
          issues: [issue(INTENT_ISSUE.TARGET_NOT_STOCK_TOKEN, 'targetTokenAddress', `${asset.ticker} is not a tokenized stock or ETF`)],
        };
      }
      if (symbol.toUpperCase() !== asset.ticker) {
        return {
          issues: [
            issue(
              INTENT_ISSUE.TARGET_SYMBOL_MISMATCH,
              'targetSymbol',
              `the token at this address is ${asset.ticker}; the ticker must name it`,
            ),
          ],
        };
      }
      return { issues: [], target: asset };
    }
  }
}

function amountIssues(input: StockIntentInput, rules: IntentRules): ErrorIssue[] {
  const issues: ErrorIssue[] = [];
  const notionalValid = Number.isFinite(input.maxNotionalUsd) && input.maxNotionalUsd > 0;
  if (!notionalValid) {
    issues.push(issue(INTENT_ISSUE.NOTIONAL_INVALID, 'maxNotionalUsd', 'expected a positive number of US dollars'));
  } else if (input.maxNotionalUsd > rules.maxNotionalUsd) {
    issues.push(
      issue(
        INTENT_ISSUE.NOTIONAL_ABOVE_CAP,
        'maxNotionalUsd',
        `the notional cap is ${rules.maxNotionalUsd} USD; the intent is rejected, not reduced`,
      ),
    );
  }
  if (!DECIMAL_AMOUNT.test(input.inputAmount) || Number(input.inputAmount) <= 0) {
    issues.push(
      issue(
        INTENT_ISSUE.INPUT_AMOUNT_INVALID,
        'inputAmount',
        'expected a positive decimal string with at most 6 decimal places, e.g. "25" or "25.50"',
      ),
    );
  } else if (notionalValid && Number(input.inputAmount) > input.maxNotionalUsd) {
    issues.push(
      issue(INTENT_ISSUE.INPUT_AMOUNT_ABOVE_MAX_NOTIONAL, 'inputAmount', "the USDG amount is above the intent's own maxNotionalUsd"),
    );
  }
  if (!Number.isInteger(input.maxSlippageBps) || input.maxSlippageBps < 0) {
    issues.push(issue(INTENT_ISSUE.SLIPPAGE_INVALID, 'maxSlippageBps', 'expected a non-negative integer number of basis points'));
  } else if (input.maxSlippageBps > MAX_SLIPPAGE_BPS) {
    issues.push(
      issue(
        INTENT_ISSUE.SLIPPAGE_ABOVE_CAP,
        'maxSlippageBps',
        `slippage is capped at ${MAX_SLIPPAGE_BPS} bps; the intent is rejected, not reduced`,
      ),
    );
  }
  return issues;
}

/** Every rule of interface 2.8 / 4.5; returns all broken rules, never a corrected intent. */
export function stockIntentIssues(input: StockIntentInput, rules: IntentRules): { issues: ErrorIssue[]; target?: RegistryAsset } {
  const issues: ErrorIssue[] = [];
  if (!(STOCK_INTENT_MODES as readonly string[]).includes(input.mode)) {
    issues.push(issue(INTENT_ISSUE.MODE_UNSUPPORTED, 'mode', `expected one of ${STOCK_INTENT_MODES.join(', ')}`));
  }
  if (!(STOCK_INTENT_SIDES as readonly string[]).includes(input.side)) {
    issues.push(issue(INTENT_ISSUE.SIDE_UNSUPPORTED, 'side', `expected one of ${STOCK_INTENT_SIDES.join(', ')}`));
  }
  if (!(STOCK_INTENT_INPUT_ASSETS as readonly string[]).includes(input.inputAsset)) {
    issues.push(issue(INTENT_ISSUE.INPUT_ASSET_UNSUPPORTED, 'inputAsset', 'the input asset must be USDG'));
  }
  const target = targetIssues(input);
  issues.push(...target.issues);
  issues.push(...amountIssues(input, rules));
  if (input.chainId !== undefined && input.chainId !== BROKER_CHAIN_ID) {
    issues.push(issue(INTENT_ISSUE.WRONG_CHAIN, 'chainId', `stock tokens live on chain ${BROKER_CHAIN_ID} only`));
  }
  if (input.userAcknowledgedTokenizedExposureNotDirectStockOwnership !== true) {
    issues.push(
      issue(
        INTENT_ISSUE.ACK_TOKENIZED_EXPOSURE_REQUIRED,
        'userAcknowledgedTokenizedExposureNotDirectStockOwnership',
        'acknowledge that a stock token is tokenized exposure, not direct ownership of the stock (must be true)',
      ),
    );
  }
  if (input.userAcknowledgedPartnerExecutesTrade !== true) {
    issues.push(
      issue(
        INTENT_ISSUE.ACK_PARTNER_EXECUTES_REQUIRED,
        'userAcknowledgedPartnerExecutesTrade',
        'acknowledge that the external partner, not this service, would carry out the trade (must be true)',
      ),
    );
  }
  if (input.venue !== undefined && !(STOCK_INTENT_VENUES as readonly string[]).includes(input.venue)) {
    issues.push(issue(INTENT_ISSUE.VENUE_UNSUPPORTED, 'venue', 'the only venue is broker'));
  }
  if (input.mode === 'vault_operator_rebalance' && input.venue === undefined) {
    issues.push(
      issue(
        INTENT_ISSUE.VENUE_REQUIRED_FOR_VAULT_REBALANCE,
        'venue',
        'a vault_operator_rebalance intent must name its venue explicitly ("broker")',
      ),
    );
  }
  return { issues, target: target.target };
}

/**
 * The canonical form of an intent: the object the plan hash covers. It is defined for any
 * intent (submit checks the hash before it revalidates), and for a valid intent it is exactly
 * the validated intent: lossless rewrites only (ticker upper-cased, address checksummed),
 * absent optional fields stay absent.
 */
export function normalizeIntent(input: StockIntentInput): Record<string, unknown> {
  const address = input.targetTokenAddress?.trim();
  const normalized: Record<string, unknown> = {
    mode: input.mode,
    side: input.side,
    targetSymbol: input.targetSymbol.trim().toUpperCase(),
    targetTokenAddress: address === undefined ? undefined : (checksumAddress(address) ?? address),
    inputAsset: input.inputAsset,
    inputAmount: input.inputAmount,
    maxSlippageBps: input.maxSlippageBps,
    maxNotionalUsd: input.maxNotionalUsd,
    userAcknowledgedTokenizedExposureNotDirectStockOwnership: input.userAcknowledgedTokenizedExposureNotDirectStockOwnership,
    userAcknowledgedPartnerExecutesTrade: input.userAcknowledgedPartnerExecutesTrade,
    venue: input.venue,
    chainId: input.chainId,
  };
  for (const key of Object.keys(normalized)) if (normalized[key] === undefined) delete normalized[key];
  return normalized;
}

/** Validates an intent or throws 422 `STOCK_INTENT_INVALID` with one issue per broken rule. */
export function validateStockIntent(input: StockIntentInput, rules: IntentRules): ValidatedIntent {
  const { issues, target } = stockIntentIssues(input, rules);
  if (issues.length > 0 || !target) {
    throw new SvcError(STOCK_INTENT_INVALID, 'The stock-trade intent was rejected; no value is clamped, fix the listed fields', { issues });
  }
  return { intent: normalizeIntent(input) as unknown as StockIntent, target };
}
