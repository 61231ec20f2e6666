/**
 * The command pack of spec 2.9: the same command as a social post, a CLI call and an agent
 * API request. Every command text is derived from the validated intent and ends with the
 * explicit venue phrase `on broker`.
 */
import { SvcError } from '../errors';
import { BROKER_CHAIN_ID, type RegistryAsset } from '../registry';
import type { StockIntent } from './intent';

export const VENUE_PHRASE = 'on broker' as const;

/** Placeholders of spec 2.9: the partner's API base is the partner's, not a value of this service. */
export const PARTNER_PROMPT_URL_TEMPLATE = '{partner_api_url}/agent/prompt';
export const PARTNER_JOB_URL_TEMPLATE = '{partner_api_url}/agent/job/{jobId}';

export interface CommandPack {
  social: string;
  cli: string;
  agentApi: {
    method: 'POST';
    url: string;
    authHeaderName: 'X-API-Key';
    apiKeyEnvVar: 'PARTNER_API_KEY';
    body: { prompt: string };
    pollUrlTemplate: string;
  };
  chainId: typeof BROKER_CHAIN_ID;
  canonical: { targetSymbol: string; targetTokenAddress: string; usdgAddress: string };
}

/** `buy $25 of NVDA`, `swap $25 of USDG to NVDA`, `sell $25 of NVDA` (amounts in USDG, 1:1 USD). */
export function tradePhrase(intent: Pick<StockIntent, 'side' | 'inputAmount' | 'targetSymbol'>): string {
  const amount = `$${intent.inputAmount}`;
  switch (intent.side) {
    case 'buy':
      return `buy ${amount} of ${intent.targetSymbol}`;
    case 'swap':
      return `swap ${amount} of USDG to ${intent.targetSymbol}`;
    case 'sell':
      return `sell ${amount} of ${intent.targetSymbol}`;
  }
}

/**
 * Refuses a command without the explicit venue phrase (spec 4.5). Commands are built here,
 * so this never fires for a validated intent; it keeps a future change from emitting one.
 */
export function assertVenuePhrase(command: string): string {
  if (!command.trimEnd().endsWith(` ${VENUE_PHRASE}`)) {
    throw new SvcError('COMMAND_VENUE_PHRASE_MISSING', `Every command must end with the explicit venue phrase "${VENUE_PHRASE}"`);
  }
  return command;
}

/** The prompt the partner receives: the trade phrase with its venue. */
export function partnerCommand(intent: StockIntent): string {
  return assertVenuePhrase(`${tradePhrase(intent)} ${VENUE_PHRASE}`);
}

export function buildCommandPack(intent: StockIntent, target: RegistryAsset, usdg: RegistryAsset): CommandPack {
  const command = partnerCommand(intent);
  return {
    social: assertVenuePhrase(`@partnerbot ${command}`),
    cli: `partner --ni "${command}"`,
    agentApi: {
      method: 'POST',
      url: PARTNER_PROMPT_URL_TEMPLATE,
      authHeaderName: 'X-API-Key',
      apiKeyEnvVar: 'PARTNER_API_KEY',
      body: { prompt: command },
      pollUrlTemplate: PARTNER_JOB_URL_TEMPLATE,
    },
    chainId: BROKER_CHAIN_ID,
    canonical: { targetSymbol: target.ticker, targetTokenAddress: target.address, usdgAddress: usdg.address },
  };
}
