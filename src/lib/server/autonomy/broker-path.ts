/**
 * The partnerbot → broker autonomy path, compiled (never run): from a valid Coil whose
 * autonomy gate is ready, the partner command pack (interface 2.9 commands ending "on broker"),
 * the broker MCP instruction pack a user's own broker-MCP agent follows, a paper runbook,
 * the live-readiness gate, and the path's binding: the symbols and the fuse set a post-run
 * audit checks reported activity against, sealed in an `autonomy_path` receipt.
 *
 * Symbol spaces stay apart: the partner commands and the instruction pack name broker
 * tickers; the chain addresses appear only as the canonical identity beside them.
 */
import { SvcError, type ErrorIssue } from '../errors';
import { allocationNotionalUsd, requireValidCoil, resolveTotalNotionalUsd } from '../coil/capsule';
import { FUSE_CATALOGUE } from '../coil/fuse-catalogue';
import type { Coil } from '../coil/manifest';
import { buildShareCard } from '../coil/share-card';
import { buildArtifactReceipt, buildBoundReceipt } from '../receipts/artifact';
import { hashCanonical } from '../canonical';
import { buildReceipt, coilIdOf, manifestHashOf, weightsChecksumOf } from '../receipts/receipt';
import { BROKER_CHAIN_ID, USDG, findAssetByAddress, type RegistryAsset } from '../registry';
import { MARKET_SESSION } from '../registry/market-session';
import { buildCommandPack, VENUE_PHRASE, type CommandPack } from '../stocks/command-pack';
import { normalizeIntent, stockIntentIssues, type StockIntent } from '../stocks/intent';
import { AUTONOMY_MODE_MEANING, type AutonomyMode } from './modes';
import { fuseLimit, validateAutonomy, type AutonomyFuse, type AutonomyGate, type AutonomyRequest } from './validate';
import type { ServerTime } from '../clock';

export const COMMAND_PACK_VERSION = 'svc-partnerbot-command-pack-1.0.0';
export const INSTRUCTIONS_VERSION = 'svc-broker-mcp-instructions-1.0.0';
export const PATH_VERSION = 'svc-broker-path-1.0.0';
export const RUNBOOK_VERSION = 'svc-paper-runbook-1.0.0';
export const POST_RUN_AUDIT_ROUTE = 'POST /api/partnerbot/post-run-audit';

export interface PathOptions extends AutonomyRequest {
  maxTotalNotionalUsd?: number;
}

export interface PathDeps {
  /** The answer's clock (`nowIso` pins it): every timestamp written into the path. */
  now: Date;
  /** The server's clock: the acknowledgment's age is checked against it. */
  serverTime: ServerTime;
  /** PARTNER_STOCK_TRADE_MAX_NOTIONAL_USD: the stock lane's cap applies to every partner command. */
  stockNotionalCapUsd: number;
}

export interface PathSymbol {
  brokerTicker: string;
  tokenAddress: string;
  targetWeightBps: number;
  planNotionalUsd: number;
}

/** A Coil that passed the gate, with what every artifact of the path is built from. */
export interface PreparedPath {
  coil: Coil;
  mode: AutonomyMode;
  gate: AutonomyGate;
  fuses: AutonomyFuse[];
  fuseChecksum: string;
  manifestHash: string;
  coilId: string;
  totalNotionalUsd: number;
  symbols: PathSymbol[];
  cashWeightBps: number;
  targets: Map<string, RegistryAsset>;
}

/**
 * Validates the Coil (422 COIL_INVALID) and the autonomy request (422 AUTONOMY_GATE_BLOCKED
 * with every blocking issue), then resolves the run's notional and its symbols.
 */
export function preparePath(coil: Coil, options: PathOptions, deps: Pick<PathDeps, 'serverTime'>): PreparedPath {
  requireValidCoil(coil);
  const evaluation = validateAutonomy(coil, options, deps.serverTime);
  if (evaluation.gate.verdict === 'blocked') {
    throw new SvcError(
      'AUTONOMY_GATE_BLOCKED',
      `The autonomy gate is blocked for ${evaluation.mode}: ${evaluation.gate.missing.join(', ')}. POST /api/partnerbot/validate-autonomy lists every issue`,
      {
        issues: evaluation.issues
          .filter((i) => i.severity === 'error')
          .map((i) => ({ code: i.code, message: i.message, ...(i.path ? { path: i.path } : {}) })),
      },
    );
  }
  const declaredTotal = fuseLimit(evaluation.fuses, 'maxTotalNotional') ?? undefined;
  const totalNotionalUsd = resolveTotalNotionalUsd(declaredTotal, options.maxTotalNotionalUsd);
  const symbols: PathSymbol[] = [];
  const targets = new Map<string, RegistryAsset>();
  let cashWeightBps = 0;
  for (const asset of coil.assets) {
    const target = findAssetByAddress(asset.tokenAddress)!;
    if (target.kind === 'stablecoin') {
      cashWeightBps += asset.weightBps;
      continue;
    }
    targets.set(target.ticker, target);
    symbols.push({
      brokerTicker: target.ticker,
      tokenAddress: target.address,
      targetWeightBps: asset.weightBps,
      planNotionalUsd: allocationNotionalUsd(totalNotionalUsd, asset.weightBps),
    });
  }
  const manifestHash = manifestHashOf(coil);
  return {
    coil,
    mode: evaluation.mode,
    gate: evaluation.gate,
    fuses: evaluation.fuses,
    fuseChecksum: evaluation.fuseChecksum,
    manifestHash,
    coilId: coilIdOf(manifestHash),
    totalNotionalUsd,
    symbols,
    cashWeightBps,
    targets,
  };
}

// ---------------------------------------------------------------------------------------------
// Partner command pack

const USER_ACKNOWLEDGMENTS = ['userAcknowledgedTokenizedExposureNotDirectStockOwnership', 'userAcknowledgedPartnerExecutesTrade'] as const;

/**
 * One partner command per stock or ETF token of the Coil, for its share of the run's
 * notional. Each command's intent passes every rule of the stock lane (the two
 * acknowledgments aside: they are the user's to give when the intent is prepared) and stays
 * within the single-order fuse; otherwise 422 COMMAND_PACK_INVALID names each problem.
 */
export function partnerbotCommandPack(path: PreparedPath, deps: Pick<PathDeps, 'stockNotionalCapUsd'>) {
  const slippage = fuseLimit(path.fuses, 'maxSlippage')!;
  const orderCap = fuseLimit(path.fuses, 'maxSingleOrderNotional')!;
  const usdg = findAssetByAddress(USDG.address)!;
  const issues: ErrorIssue[] = [];
  const commands = path.symbols.map((s, i) => {
    const template = {
      mode: 'personal_partner_trade',
      side: 'buy',
      targetSymbol: s.brokerTicker,
      targetTokenAddress: s.tokenAddress,
      inputAsset: 'USDG',
      inputAmount: String(s.planNotionalUsd),
      maxSlippageBps: slippage,
      maxNotionalUsd: s.planNotionalUsd,
      venue: 'broker',
      chainId: BROKER_CHAIN_ID,
    };
    // Every rule but the two acknowledgments, which only the user can give.
    const checked = stockIntentIssues(
      { ...template, userAcknowledgedTokenizedExposureNotDirectStockOwnership: true, userAcknowledgedPartnerExecutesTrade: true },
      { maxNotionalUsd: deps.stockNotionalCapUsd },
    );
    issues.push(...checked.issues.map((x) => ({ ...x, path: `commands[${i}].${x.path}` })));
    if (s.planNotionalUsd > orderCap) {
      issues.push({
        code: 'ORDER_ABOVE_SINGLE_ORDER_FUSE',
        message: `${s.brokerTicker} would need ${s.planNotionalUsd} USD in one order, above the maxSingleOrderNotional fuse of ${orderCap} USD; lower maxTotalNotionalUsd or split the plan yourself`,
        path: `commands[${i}]`,
      });
    }
    const intent = normalizeIntent({
      ...template,
      userAcknowledgedTokenizedExposureNotDirectStockOwnership: true,
      userAcknowledgedPartnerExecutesTrade: true,
    }) as unknown as StockIntent;
    const commandPack: CommandPack = buildCommandPack(intent, path.targets.get(s.brokerTicker)!, usdg);
    return {
      brokerTicker: s.brokerTicker,
      tokenAddress: s.tokenAddress,
      targetWeightBps: s.targetWeightBps,
      notionalUsd: s.planNotionalUsd,
      commandPack,
      intentTemplate: normalizeIntent(template as never),
    };
  });
  if (issues.length)
    throw new SvcError(
      'COMMAND_PACK_INVALID',
      'A command of this pack would break a rule of the stock lane or a fuse; nothing is lowered to fit',
      { issues },
    );
  return {
    packVersion: COMMAND_PACK_VERSION,
    coilId: path.coilId,
    coilSlug: path.coil.slug,
    manifestHash: path.manifestHash,
    autonomyMode: path.mode,
    chainId: BROKER_CHAIN_ID,
    totalNotionalUsd: path.totalNotionalUsd,
    cashWeightBps: path.cashWeightBps,
    venuePhrase: VENUE_PHRASE as typeof VENUE_PHRASE,
    executor: 'partner' as const,
    commands,
    acknowledgmentsRequired: [...USER_ACKNOWLEDGMENTS],
    svcExecutesTrade: false as const,
    partnerContacted: false as const,
    nextStep:
      'Each intentTemplate is a stock-lane intent without your two acknowledgments. To hand one to the partner through this service, add both (each true) and POST it to /api/stocks/prepare-partner-command, then submit the prepared plan. A command sent to the partner is its job; only an on-chain confirmed receipt proves a trade.',
  };
}
export type PartnerbotCommandPack = ReturnType<typeof partnerbotCommandPack>;

// ---------------------------------------------------------------------------------------------
// Broker MCP instruction pack

const STOP_CONDITIONS: Record<string, string> = {
  stopIfOracleUnhealthy: 'Stop the run when any price is stale, missing or unhealthy: an unknown price is never treated as live.',
  stopIfReceiptMismatch:
    "Stop the run when this pack's receipt no longer verifies (POST /api/receipts/verify) or the Coil no longer hashes to its manifestHash.",
};

const ABORT_CONDITIONS = [
  'The user has not confirmed an order that the humanConfirmation fuse requires them to confirm.',
  'Any fuse would be breached by the next order, or a fuse cannot be checked (unknown counts as breached).',
  'Account data (positions, buying power, prices) is stale or missing.',
  'A broker MCP capability the step needs is unknown or unavailable in this session.',
];

const NEVER = [
  'Never trade a symbol outside `symbols`, never convert a chain address into a ticker, never trade options or on margin.',
  'Never widen a fuse: the strictest value wins, and a value missing from this pack means stop, not default.',
  "Never retry an order whose outcome is unknown: reconcile with the broker's order list first.",
  'Never send credentials, account numbers or order ids to this service; report activity with the fields named in postRunAudit only.',
  'Never describe an order as done unless the broker itself shows it; this service confirms nothing about the broker account.',
];

function modeSteps(mode: AutonomyMode, hasHumanConfirmation: boolean): string[] {
  const common = [
    'Connect your own broker MCP in your own agent; this service never sees its credentials and never calls it.',
    "Discover the session's broker MCP tools; treat any capability you cannot confirm as unavailable.",
    'Read your account (positions, buying power) and every price; stop if any is stale or missing.',
  ];
  switch (mode) {
    case 'paper':
      return [
        ...common,
        'Plan each order within the fuses on paper only: do not preview or submit anything in the broker.',
        `Report the planned orders with simulated: true to ${POST_RUN_AUDIT_ROUTE}.`,
      ];
    case 'preview':
      return [
        ...common,
        'Preview each order within the fuses in your broker (a preview, never a submission).',
        `Report the previews with simulated: true to ${POST_RUN_AUDIT_ROUTE}.`,
      ];
    case 'live_candidate':
      return [
        ...common,
        "For each symbol, size the order within maxSingleOrderNotional, the run's total and the daily turnover; review it before any placement.",
        hasHumanConfirmation
          ? 'Ask the user to confirm every order above the humanConfirmation threshold; without the confirmation, abort that order.'
          : 'Follow the humanConfirmation fuse for every order.',
        'Place orders only in your own broker account through your own broker MCP, inside the market session; stop at the first breach.',
        `After the session, report every order attempt (and its broker order id, if any) to ${POST_RUN_AUDIT_ROUTE} with this pack's receipt.`,
      ];
  }
}

/** The instruction pack a user's own broker-MCP agent follows; it carries no order. */
export function brokerMcpInstructions(path: PreparedPath) {
  const human = fuseLimit(path.fuses, 'humanConfirmation');
  const orderCap = fuseLimit(path.fuses, 'maxSingleOrderNotional')!;
  return {
    instructionsVersion: INSTRUCTIONS_VERSION,
    coilId: path.coilId,
    coilSlug: path.coil.slug,
    manifestHash: path.manifestHash,
    autonomyMode: path.mode,
    modeMeaning: AUTONOMY_MODE_MEANING[path.mode],
    executor: 'user_broker_mcp_session' as const,
    symbolSpace: 'broker_ticker' as const,
    symbols: path.symbols.map((s) => ({
      brokerTicker: s.brokerTicker,
      targetWeightBps: s.targetWeightBps,
      planNotionalUsd: s.planNotionalUsd,
      maxOrderNotionalUsd: Math.min(orderCap, s.planNotionalUsd),
    })),
    cashWeightBps: path.cashWeightBps,
    totalNotionalUsd: path.totalNotionalUsd,
    fuses: path.fuses.map((f) => ({
      kind: f.kind,
      unit: f.unit,
      limit: f.limit,
      rule: f.limit === null ? FUSE_CATALOGUE[f.kind].label : `${FUSE_CATALOGUE[f.kind].label}: ${f.limit} ${f.unit}`,
    })),
    fuseChecksum: path.fuseChecksum,
    marketSession: { ...MARKET_SESSION },
    humanConfirmation: {
      thresholdUsd: human ?? null,
      rule: human === 0 ? 'The user confirms every order.' : `The user confirms every order above ${human} USD.`,
    },
    stopConditions: path.fuses.filter((f) => f.kind in STOP_CONDITIONS).map((f) => STOP_CONDITIONS[f.kind]!),
    abortConditions: [...ABORT_CONDITIONS],
    steps: modeSteps(path.mode, human !== undefined),
    never: [...NEVER],
    postRunAudit: {
      route: POST_RUN_AUDIT_ROUTE,
      reportFields: [
        'symbol',
        'side',
        'notionalUsd',
        'at',
        'brokerOrderId?',
        'note?',
        'instrument?',
        'margin?',
        'humanConfirmed?',
        'simulated?',
      ],
      rule: "Reported activity is your agent's word: the audit labels every item reported_unverified and checks it against these symbols and fuses.",
    },
    svcExecutes: false as const,
    svcHoldsCredentials: false as const,
    containsOrders: false as const,
  };
}
export type BrokerMcpInstructions = ReturnType<typeof brokerMcpInstructions>;

// ---------------------------------------------------------------------------------------------
// Binding, runbook, whole path

/** What a post-run audit checks activity against, sealed in the `autonomy_path` receipt. */
export function pathBinding(path: PreparedPath, instructions: BrokerMcpInstructions) {
  return {
    pathVersion: PATH_VERSION,
    coilId: path.coilId,
    coilSlug: path.coil.slug,
    manifestHash: path.manifestHash,
    weightsChecksum: weightsChecksumOf(path.coil),
    autonomyMode: path.mode,
    symbols: path.symbols.map((s) => ({ brokerTicker: s.brokerTicker, tokenAddress: s.tokenAddress, targetWeightBps: s.targetWeightBps })),
    cashWeightBps: path.cashWeightBps,
    totalNotionalUsd: path.totalNotionalUsd,
    fuses: path.fuses.map((f) => ({ kind: f.kind, unit: f.unit, limit: f.limit })),
    fuseChecksum: path.fuseChecksum,
    instructionsHash: hashCanonical(instructions),
  };
}
export type PathBinding = ReturnType<typeof pathBinding>;

export function pathReceipt(path: PreparedPath, instructions: BrokerMcpInstructions, now: Date) {
  return buildBoundReceipt('autonomy_path', pathBinding(path, instructions), now, path.manifestHash);
}

/** The broker MCP instruction pack alone, with the receipt its post-run audit needs. */
export function generateBrokerMcpInstructions(coil: Coil, options: PathOptions, deps: PathDeps) {
  const path = preparePath(coil, options, deps);
  const instructions = brokerMcpInstructions(path);
  return { instructions, receipt: pathReceipt(path, instructions, deps.now) };
}

/** The partner command pack alone, with its receipt. */
export function generatePartnerbotCommandPack(coil: Coil, options: PathOptions, deps: PathDeps) {
  const path = preparePath(coil, options, deps);
  const commandPack = partnerbotCommandPack(path, deps);
  return { commandPack, receipt: buildArtifactReceipt('partnerbot_command_pack', commandPack, deps.now, path.manifestHash) };
}

function paperRunbook(path: PreparedPath) {
  return {
    runbookVersion: RUNBOOK_VERSION,
    mode: 'paper' as const,
    steps: [
      'Read the instruction pack and the partner command pack; check each symbol against GET /api/stocks/registry.',
      ...path.symbols.map(
        (s) =>
          `On paper, size ${s.brokerTicker} at ${s.targetWeightBps} bps of ${path.totalNotionalUsd} USD (${s.planNotionalUsd} USD) and check it against every fuse.`,
      ),
      `Report the paper orders with simulated: true to ${POST_RUN_AUDIT_ROUTE} and read the verdict.`,
      'Only after reviewing the paper run, and with the live-autonomy acknowledgment, may the path be compiled again as live_candidate.',
    ],
    liveOrderPossible: false as const,
  };
}

export interface ShareCardDeps {
  serviceOrigin: string;
  shareUrlBase?: string;
}

/**
 * The whole path: gate, live readiness, partner command pack, broker MCP instructions, paper
 * runbook, the `autonomy_path` receipt, and a share card on the Coil's own receipt.
 */
export function compileBrokerPath(coil: Coil, options: PathOptions, deps: PathDeps & ShareCardDeps) {
  const path = preparePath(coil, options, deps);
  const commandPack = partnerbotCommandPack(path, deps);
  const instructions = brokerMcpInstructions(path);
  const live =
    path.mode === 'live_candidate'
      ? { gate: path.gate }
      : { gate: validateAutonomy(coil, { ...options, autonomyMode: 'live_candidate' }, deps.serverTime).gate };
  const coilReceipt = buildReceipt(coil, 'coil_manifest', deps.now);
  return {
    autonomyMode: path.mode,
    gate: path.gate,
    liveReadiness: { verdict: live.gate.verdict, missing: live.gate.missing },
    fuses: path.fuses,
    fuseChecksum: path.fuseChecksum,
    commandPack,
    brokerMcpInstructions: instructions,
    paperRunbook: paperRunbook(path),
    receipt: pathReceipt(path, instructions, deps.now),
    coilReceipt,
    shareCard: buildShareCard({ coil, receipt: coilReceipt, serviceOrigin: deps.serviceOrigin, shareUrlBase: deps.shareUrlBase }),
  };
}
