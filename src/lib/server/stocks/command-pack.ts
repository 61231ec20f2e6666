/**
 * The command pack of interface 2.9: the same command as a social post, a CLI call and an agent
 * API request. Every command text is derived from the validated intent and ends with the
 * explicit venue phrase `on broker`.
 */
import { SvcError } from '../errors';
import { BROKER_CHAIN_ID, type RegistryAsset } from '../registry';
import type { StockIntent } from './intent';
import { z } from 'zod';

export const VENUE_PHRASE = 'on broker' as const;

/** Interface 2.9's templates; `{partner_api_url}` stays only when this server has no PARTNER_API_URL to put there. */
export const PARTNER_API_URL_PLACEHOLDER = '{partner_api_url}';
export const PARTNER_PROMPT_PATH = '/agent/prompt';
export const PARTNER_JOB_PATH_TEMPLATE = '/agent/job/{jobId}';

/**
 * The configured partner address as it may appear in a pack: an http(s) URL without
 * credentials, query or fragment (one that carries any is never echoed), trailing slashes removed.
 */
export function publicPartnerApiBase(configured: string | undefined): string | undefined {
  if (!configured) return undefined;
  let url: URL;
  try {
    url = new URL(configured);
  } catch {
    return undefined;
  }
  if (!/^https?:$/.test(url.protocol) || url.username || url.password || url.search || url.hash) return undefined;
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}

export const commandPackSchema = z.object({
  social: z.string(),
  cli: z.string(),
  agentApi: z.object({
    method: z.literal('POST'),
    url: z.string(),
    authHeaderName: z.literal('X-API-Key'),
    apiKeyEnvVar: z.literal('PARTNER_API_KEY'),
    body: z.object({ prompt: z.string() }),
    pollUrlTemplate: z.string(),
    partnerApiUrlConfigured: z
      .boolean()
      .describe("true: url and pollUrlTemplate name this server's PARTNER_API_URL; false: they keep the {partner_api_url} placeholder"),
    urlNote: z.string(),
  }),
  handOver: z
    .object({
      runsTheTrade: z.literal('partner'),
      whoRunsTheTrade: z.string(),
      throughThisService: z.boolean().describe('true when this deployment can hand the plan to the partner itself (submit-partner-intent)'),
      steps: z.array(z.string()).describe('how to hand the trade over on this deployment, in order of preference'),
    })
    .describe('who runs the trade and how to hand it over on this deployment; the service itself never places it'),
  chainId: z.literal(BROKER_CHAIN_ID),
  canonical: z.object({ targetSymbol: z.string(), targetTokenAddress: z.string(), usdgAddress: z.string() }),
});
export type CommandPack = z.infer<typeof commandPackSchema>;

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
 * Refuses a command without the explicit venue phrase (interface 4.5). Commands are built here,
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

/**
 * Who runs the trade and how to hand it over, in words that hold on this deployment: the
 * agent API step names an address only when one is configured, never the template as if it
 * were one.
 */
export function handOverSteps(base: string | undefined, throughThisService: boolean): CommandPack['handOver'] {
  const steps: string[] = [];
  if (throughThisService)
    steps.push('Hand the plan over from this service: confirm its plan hash and submit it; the partner answers with a job you can follow.');
  steps.push(
    'Post the social command to @partnerbot from your own partner account, or run the command line in the partner CLI where you are signed in.',
  );
  steps.push(
    base
      ? `Or send the agent API request to ${base}${PARTNER_PROMPT_PATH} with your own partner API key in the X-API-Key header.`
      : 'Or send the agent API request to the partner API address you were given, with your own partner API key in the X-API-Key header (no partner API address is configured on this deployment).',
  );
  return {
    runsTheTrade: 'partner',
    whoRunsTheTrade:
      'The partner (the external trading agent, @partnerbot) places and settles the trade on chain 4663 from your own partner account; this service only prepares and checks the plan and never places an order.',
    throughThisService,
    steps,
  };
}

export function buildCommandPack(
  intent: StockIntent,
  target: RegistryAsset,
  usdg: RegistryAsset,
  partnerApiUrl?: string,
  throughThisService = false,
): CommandPack {
  const command = partnerCommand(intent);
  const base = publicPartnerApiBase(partnerApiUrl);
  return {
    social: assertVenuePhrase(`@partnerbot ${command}`),
    cli: `partner --ni "${command}"`,
    agentApi: {
      method: 'POST',
      url: `${base ?? PARTNER_API_URL_PLACEHOLDER}${PARTNER_PROMPT_PATH}`,
      authHeaderName: 'X-API-Key',
      apiKeyEnvVar: 'PARTNER_API_KEY',
      body: { prompt: command },
      pollUrlTemplate: `${base ?? PARTNER_API_URL_PLACEHOLDER}${PARTNER_JOB_PATH_TEMPLATE}`,
      partnerApiUrlConfigured: base !== undefined,
      urlNote: base
        ? "The partner API address is this server's configured PARTNER_API_URL."
        : partnerApiUrl
          ? 'PARTNER_API_URL is configured but not shown (it carries credentials, a query or is not an http(s) URL): replace {partner_api_url} with the partner API address you use.'
          : 'PARTNER_API_URL is not configured on this server: replace {partner_api_url} with the partner API address you use.',
    },
    handOver: handOverSteps(base, throughThisService),
    chainId: BROKER_CHAIN_ID,
    canonical: { targetSymbol: target.ticker, targetTokenAddress: target.address, usdgAddress: usdg.address },
  };
}
