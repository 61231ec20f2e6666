/**
 * The pages' own readings of what a person typed, before anything is sent: null when the text
 * reads, else what to write instead. The service checks again; these only keep a form from
 * sending what it would refuse.
 */

/** A maximum slippage: whole basis points. */
export function slippageBpsProblem(text: string): string | null {
  return /^\d+$/.test(text.trim()) ? null : 'whole basis points, e.g. 100 for 1 %';
}

/** An amount of USDG: positive, at most 6 decimals (the token's); `example` is the form's usual amount. */
export function usdgAmountProblem(text: string, example: string): string | null {
  return /^\d+(\.\d{1,6})?$/.test(text.trim()) && Number(text) > 0
    ? null
    : `a positive USDG amount with at most 6 decimals, e.g. ${example}`;
}
