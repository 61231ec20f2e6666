/**
 * Names of the runtime contract's configuration settings that both the server and the pages
 * need: the server lists them as a workflow's environment gates, the pages keep them out of
 * what people read. Names only, never values, so this module is safe in the browser bundle.
 */

/** The settings of the x402 facilitator lane, in the order the agent workflow index lists them. */
export const FACILITATOR_SETTING_NAMES = [
  'FACILITATOR_ENABLED',
  'FACILITATOR_API_KEY',
  'FACILITATOR_URL',
  'FACILITATOR_NETWORK',
  'FACILITATOR_CHAIN_ID',
  'FACILITATOR_USDG_ADDRESS',
  'FACILITATOR_ADDRESS',
  'FACILITATOR_PAYTO_ADDRESS',
  'FACILITATOR_TIMEOUT_MS',
] as const;
