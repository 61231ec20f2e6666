/**
 * Autonomy modes and the live-autonomy acknowledgment: the one definition that
 * `GET /api/partnerbot/schema` publishes and the autonomy validation applies.
 *
 * Modes: `paper` (the default: a dry run, nothing is placed) → `preview` (orders may be
 * previewed in the user's own broker, never submitted) → `live_candidate` (this service's
 * checks pass; the user's own agent may act within the fuses). No mode sends anything from
 * this service, and no mode string stands in for the acknowledgment.
 */
import { parseIsoInstant, type ServerTime } from '../clock';
import type { ExecutionMode } from '../coil/manifest';

export const AUTONOMY_MODES = ['paper', 'preview', 'live_candidate'] as const;
export type AutonomyMode = (typeof AUTONOMY_MODES)[number];
export const DEFAULT_AUTONOMY_MODE: AutonomyMode = 'paper';

export const AUTONOMY_MODE_MEANING: Readonly<Record<AutonomyMode, string>> = {
  paper: 'A dry run: the agent reads and plans; nothing is previewed or submitted to any broker.',
  preview: "Orders may be previewed in the user's own broker account and are never submitted.",
  live_candidate:
    "This service's checks pass and the live-autonomy acknowledgment is on record. This service still sends nothing: any order happens only in the user's own broker account, through the user's own broker MCP connection.",
};

/**
 * The highest autonomy mode a Coil's own execution mode allows: an autonomy path never goes
 * further than the Coil says (a Coil that wants a human on every order is never run as an
 * unattended agent).
 */
export const HIGHEST_MODE_FOR_EXECUTION_MODE: Readonly<Record<ExecutionMode, AutonomyMode>> = {
  paper_only: 'paper',
  preview_only: 'preview',
  human_confirm: 'preview',
  agentic_mcp_enabled: 'live_candidate',
};

export function modeRank(mode: AutonomyMode): number {
  return AUTONOMY_MODES.indexOf(mode);
}

/**
 * What a user confirms, each literally `true`, before any agent of theirs runs a path
 * without a per-order prompt. A record of understanding, never a permission this service
 * acts on: the service places no order in any mode.
 */
export const LIVE_AUTONOMY_ACK_FIELDS: ReadonlyArray<{ field: string; statement: string }> = [
  { field: 'userUnderstandsNotInvestmentAdvice', statement: 'Nothing this service produces is investment advice.' },
  {
    field: 'userUnderstandsSvcNeverExecutes',
    statement: 'This service never places, fills or settles an order; my own agent or the partner does, under my control.',
  },
  { field: 'userUnderstandsPartnerExecutesTrade', statement: 'Stock-token trades are run by the external partner on its own terms.' },
  {
    field: 'userUnderstandsTokenizedExposure',
    statement: 'Tokenized stocks and ETFs are economic exposure, not direct ownership of shares.',
  },
  {
    field: 'userKeepsOwnKeysAndCredentials',
    statement: 'My keys, seed phrases and brokerage logins stay with me; this service never receives them.',
  },
  { field: 'userAcceptsMandatoryFuses', statement: 'The mandatory fuses bound every run and a breach aborts it.' },
  {
    field: 'userUnderstandsJobStatusIsNotSettlement',
    statement: "A job status is the partner's word; only an on-chain confirmed receipt proves a trade.",
  },
  {
    field: 'userUnderstandsRegionalRestrictions',
    statement: 'Availability of stock tokens and of the partner is restricted by region; verifying it is between me and the partner.',
  },
  { field: 'userCanRevokeAtAnyTime', statement: 'I can stop my agent at any time; nothing here keeps running on its own.' },
];

export const ACK_TIMESTAMP_FIELD = 'acknowledgedAt' as const;
/** An acknowledgment older than this is stale: it is given for a run, never kept for later ones. */
export const LIVE_ACK_MAX_AGE_SECONDS = 86_400;
/** How far ahead of the server clock `acknowledgedAt` may be (clock skew). */
export const LIVE_ACK_FUTURE_SKEW_SECONDS = 120;

export interface AckIssue {
  code:
    | 'LIVE_ACK_REQUIRED'
    | 'LIVE_ACK_STATEMENT_NOT_TRUE'
    | 'LIVE_ACK_UNKNOWN_FIELD'
    | 'LIVE_ACK_TIMESTAMP_INVALID'
    | 'LIVE_ACK_IN_FUTURE'
    | 'LIVE_ACK_EXPIRED';
  message: string;
  path: string;
}

/**
 * Checks a live-autonomy acknowledgment against the server's clock (never the caller's
 * `nowIso`): every statement literally `true`, nothing else in the record, and an
 * `acknowledgedAt` that is neither ahead of the server nor older than a day.
 */
export function checkLiveAutonomyAck(ack: Record<string, unknown> | undefined, serverTime: ServerTime): AckIssue[] {
  const path = 'liveAutonomyAck';
  if (ack === undefined) {
    return [
      {
        code: 'LIVE_ACK_REQUIRED',
        message: 'live_candidate needs the live-autonomy acknowledgment (GET /api/partnerbot/schema); no mode string stands in for it',
        path,
      },
    ];
  }
  const issues: AckIssue[] = [];
  const known = new Set([...LIVE_AUTONOMY_ACK_FIELDS.map((f) => f.field), ACK_TIMESTAMP_FIELD]);
  for (const { field } of LIVE_AUTONOMY_ACK_FIELDS) {
    if (ack[field] !== true)
      issues.push({ code: 'LIVE_ACK_STATEMENT_NOT_TRUE', message: `${field} must be the boolean true`, path: `${path}.${field}` });
  }
  for (const key of Object.keys(ack).sort()) {
    if (known.has(key)) continue;
    // A key that is not a name is the caller's text: it is not repeated back.
    const named = /^[A-Za-z_$][\w$]{0,63}$/.test(key);
    issues.push({
      code: 'LIVE_ACK_UNKNOWN_FIELD',
      message: `${named ? key : 'a field'} is not part of the acknowledgment`,
      path: named ? `${path}.${key}` : path,
    });
  }
  const at = typeof ack[ACK_TIMESTAMP_FIELD] === 'string' ? parseIsoInstant(ack[ACK_TIMESTAMP_FIELD] as string) : undefined;
  const atPath = `${path}.${ACK_TIMESTAMP_FIELD}`;
  if (!at) {
    issues.push({
      code: 'LIVE_ACK_TIMESTAMP_INVALID',
      message: `${ACK_TIMESTAMP_FIELD} must be an ISO 8601 timestamp with a zone`,
      path: atPath,
    });
  } else if (at.getTime() > serverTime.getTime() + LIVE_ACK_FUTURE_SKEW_SECONDS * 1000) {
    issues.push({ code: 'LIVE_ACK_IN_FUTURE', message: `${ACK_TIMESTAMP_FIELD} is ahead of the server clock`, path: atPath });
  } else if (serverTime.getTime() - at.getTime() > LIVE_ACK_MAX_AGE_SECONDS * 1000) {
    issues.push({
      code: 'LIVE_ACK_EXPIRED',
      message: `${ACK_TIMESTAMP_FIELD} is more than ${LIVE_ACK_MAX_AGE_SECONDS} seconds old; acknowledge again for this run`,
      path: atPath,
    });
  }
  return issues;
}
