/**
 * Coil validation (interface 2.4) and the validation status derived from it (interface 3.4). An
 * invalid Coil is an answer with issues, never an exception: the caller decides whether a
 * tool needs a valid Coil (then 422 `COIL_INVALID`).
 */
import { findExecutionClaim } from '../guards/output-guard';
import { checkCanonical, ORACLE_POLICY } from '../registry';
import { LIVE_COIL_MODES, singleAssetCapOf, type Coil } from './manifest';

export type IssueSeverity = 'error' | 'warning';

export interface ValidationIssue {
  severity: IssueSeverity;
  code: string;
  message: string;
  /** Dotted path of the field the issue is about, when there is one. */
  path?: string;
}

export type ValidationStatus = 'valid' | 'valid-with-warnings' | 'invalid';

export interface ValidationResult {
  valid: boolean;
  validationStatus: ValidationStatus;
  issues: ValidationIssue[];
}

/** Every code the validator can emit, with its severity (documented in the README). */
export const VALIDATION_CODES: Readonly<Record<string, IssueSeverity>> = {
  NO_ASSETS: 'error',
  TICKER_ADDRESS_MISMATCH: 'error',
  NONCANONICAL_ASSET: 'error',
  UNKNOWN_ADDRESS: 'warning',
  DUPLICATE_ASSET: 'error',
  WEIGHTS_SUM: 'error',
  LIVE_FLAG_ON_PAPER: 'error',
  LIVE_FLAG_DURING_READINESS: 'error',
  EXECUTION_MODE_ON_PAPER: 'error',
  RISK_ALLOW_NONCANONICAL: 'error',
  RISK_NOT_INVESTMENT_ADVICE: 'error',
  ORACLE_STALENESS_ABOVE_POLICY: 'warning',
  EXECUTION_CLAIM_TEXT: 'warning',
};

function issue(code: keyof typeof VALIDATION_CODES, message: string, path?: string): ValidationIssue {
  return path === undefined
    ? { severity: VALIDATION_CODES[code]!, code, message }
    : { severity: VALIDATION_CODES[code]!, code, message, path };
}

export function validationStatusOf(issues: readonly ValidationIssue[]): ValidationStatus {
  if (issues.some((i) => i.severity === 'error')) return 'invalid';
  return issues.length > 0 ? 'valid-with-warnings' : 'valid';
}

/** Applies every rule of interface 2.4 (and the service's own additions) to a well-shaped Coil. */
export function validateCoil(coil: Coil): ValidationResult {
  const issues: ValidationIssue[] = [];
  const live = LIVE_COIL_MODES.has(coil.mode);
  const cap = singleAssetCapOf(coil);

  if (coil.assets.length === 0) issues.push(issue('NO_ASSETS', 'A Coil needs at least one asset', 'assets'));

  const seen = new Map<string, number>();
  let sum = 0;
  coil.assets.forEach((asset, i) => {
    const at = `assets[${i}]`;
    const check = checkCanonical(asset.ticker, asset.tokenAddress);
    if (check.status === 'ticker_address_mismatch') {
      issues.push(
        issue(
          'TICKER_ADDRESS_MISMATCH',
          `${check.asset.ticker} is canonical only at ${check.asset.address}; ${asset.tokenAddress} is a different token`,
          `${at}.tokenAddress`,
        ),
      );
    } else if (check.status === 'unknown_address' || check.status === 'malformed_address') {
      issues.push(
        live
          ? issue(
              'NONCANONICAL_ASSET',
              `${asset.tokenAddress} is not in the canonical registry; a ${coil.mode} Coil may hold canonical assets only`,
              `${at}.tokenAddress`,
            )
          : issue(
              'UNKNOWN_ADDRESS',
              `${asset.tokenAddress} is not in the canonical registry; allowed in a ${coil.mode} check, but it cannot go live`,
              `${at}.tokenAddress`,
            ),
      );
    }
    const key = asset.tokenAddress.toLowerCase();
    const first = seen.get(key);
    if (first !== undefined)
      issues.push(issue('DUPLICATE_ASSET', `${asset.tokenAddress} already appears at assets[${first}]`, `${at}.tokenAddress`));
    else seen.set(key, i);

    const w = asset.weightBps;
    if (!Number.isInteger(w) || w <= 0) {
      // The path names the asset; a message never quotes the caller's text (its ticker).
      issues.push(issue('WEIGHTS_SUM', `Each weight must be a positive integer number of bps; this one is ${w}`, `${at}.weightBps`));
    } else if (w > cap) {
      issues.push(issue('WEIGHTS_SUM', `This asset weighs ${w} bps, above the single-asset cap of ${cap} bps`, `${at}.weightBps`));
    }
    sum += w;
  });
  if (coil.assets.length > 0 && sum !== 10_000) {
    issues.push(issue('WEIGHTS_SUM', `Weights sum to ${sum} bps; they must sum to exactly 10000 bps`, 'assets'));
  }

  if (coil.risk.liveExecutionAllowed === true) {
    if (coil.mode === 'paper') {
      issues.push(issue('LIVE_FLAG_ON_PAPER', 'A paper Coil must not set risk.liveExecutionAllowed', 'risk.liveExecutionAllowed'));
    } else if (coil.mode !== 'live') {
      issues.push(
        issue(
          'LIVE_FLAG_DURING_READINESS',
          `A ${coil.mode} Coil is a readiness check: risk.liveExecutionAllowed stays off`,
          'risk.liveExecutionAllowed',
        ),
      );
    }
  }
  if (coil.mode === 'paper' && coil.executionMode !== 'paper_only') {
    issues.push(
      issue(
        'EXECUTION_MODE_ON_PAPER',
        `A paper Coil compiles to nothing: its executionMode must be paper_only, not ${coil.executionMode}`,
        'executionMode',
      ),
    );
  }
  if (coil.risk.allowNonCanonicalAssets !== false) {
    issues.push(issue('RISK_ALLOW_NONCANONICAL', 'risk.allowNonCanonicalAssets must be false', 'risk.allowNonCanonicalAssets'));
  }
  if (coil.risk.notInvestmentAdvice !== true) {
    issues.push(issue('RISK_NOT_INVESTMENT_ADVICE', 'risk.notInvestmentAdvice must be true', 'risk.notInvestmentAdvice'));
  }
  if (coil.risk.oracleStalenessSeconds > ORACLE_POLICY.maxStalenessSeconds) {
    issues.push(
      issue(
        'ORACLE_STALENESS_ABOVE_POLICY',
        `risk.oracleStalenessSeconds is ${coil.risk.oracleStalenessSeconds}; the oracle policy ${ORACLE_POLICY.version} treats prices older than ${ORACLE_POLICY.maxStalenessSeconds} seconds as stale`,
        'risk.oracleStalenessSeconds',
      ),
    );
  }
  for (const [path, text] of coilTexts(coil)) {
    if (findExecutionClaim(text)) {
      issues.push(issue('EXECUTION_CLAIM_TEXT', 'This text reads as a claim that an execution happened; a share card refuses it', path));
    }
  }
  return { valid: !issues.some((i) => i.severity === 'error'), validationStatus: validationStatusOf(issues), issues };
}

/** The free-text fields of a Coil, with their paths. */
export function coilTexts(coil: Coil): Array<[string, string]> {
  const texts: Array<[string, string]> = [['name', coil.name]];
  coil.assets.forEach((a, i) => texts.push([`assets[${i}].rationale`, a.rationale]));
  coil.risk.notes.forEach((n, i) => texts.push([`risk.notes[${i}]`, n]));
  if (coil.memo) {
    texts.push(['memo.title', coil.memo.title], ['memo.body', coil.memo.body], ['memo.disclaimer', coil.memo.disclaimer]);
  }
  return texts;
}
