/** The long descriptions of the free vault analyses (see index.ts). */
export const VAULT_ANALYSIS_DOCS: Readonly<Record<string, string>> = {
  'vaultAnalysis.calculateFees':
    'No management, entry or exit fee. A performance fee (default 1000 bps, cap 1000 bps, 2000 bps for verified creators) on profit above the high-water mark only; the protocol takes its share (default 1000 bps, at most 2000 bps) out of the creator fee. Amounts are USDG with 6 decimals, rounded down. A rate above its cap is refused (422 PERF_FEE_CAP / PROTOCOL_SHARE_CAP), never clamped.',
  'vaultAnalysis.riskScore':
    'Allocations are canonical token addresses on chain 4663 with weights summing to exactly 10000 bps (USDG is the cash reserve). Scored from concentration, equity exposure, cash reserve, diversification, fee incentive and lockup; a heuristic, not a forecast. A non-canonical address, a ticker at the wrong address or a wrong weight sum is 422 VAULT_COMPOSITION_INVALID with issues.',
  'vaultAnalysis.compare':
    'The same fee and risk facts for each vault, in the order given. `ranked` is always false and `recommendation` always null.',
};
