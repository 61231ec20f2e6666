/**
 * The autonomy-path schema (interface 4.4 `GET /api/partnerbot/schema`): the routes of the path
 * a trading agent may follow, the deposit modes, the autonomy modes, the mandatory autonomy
 * fuses and the live-autonomy acknowledgment (the same definitions the validation applies:
 * coil/fuse-catalogue.ts, autonomy/modes.ts), and the x402 call plan for the paid services.
 * Descriptive only: the service executes nothing on this path.
 */
import { FUSE_CATALOGUE, REQUIRED_AUTONOMY_FUSES } from '../coil/fuse-catalogue';
import { AGENT_WORKFLOWS, TRUTH_RULES } from '../registry/agents';
import { formatUsdgUnits } from '../vaults/amount';
import { PAID_VAULT_SERVICES, paidServiceRoute } from '../x402/catalogue';
import type { LaneSelection } from '../x402/lanes';
import {
  ACK_TIMESTAMP_FIELD,
  AUTONOMY_MODE_MEANING,
  AUTONOMY_MODES,
  DEFAULT_AUTONOMY_MODE,
  HIGHEST_MODE_FOR_EXECUTION_MODE,
  LIVE_ACK_FUTURE_SKEW_SECONDS,
  LIVE_ACK_MAX_AGE_SECONDS,
  LIVE_AUTONOMY_ACK_FIELDS,
} from './modes';

export const PARTNERBOT_SCHEMA_VERSION = 'svc-partnerbot-schema-1.0.0';

export interface PartnerbotSchemaInput {
  lane: LaneSelection;
  now: Date;
}

function routesOf(workflowIds: readonly string[]) {
  return AGENT_WORKFLOWS.filter((w) => workflowIds.includes(w.id)).flatMap((w) =>
    w.endpoints.map((endpoint) => {
      const [method, path] = endpoint.split(' ') as [string, string];
      return { method, path, workflow: w.id, railId: w.railId };
    }),
  );
}

export function partnerbotSchema({ lane, now }: PartnerbotSchemaInput) {
  return {
    schemaVersion: PARTNERBOT_SCHEMA_VERSION,
    generatedAt: now.toISOString(),
    routes: routesOf(['partner_autonomy_path', 'usdg_vault_deposit', 'partner_stock_token']),
    autonomyModes: AUTONOMY_MODES.map((mode) => ({ mode, default: mode === DEFAULT_AUTONOMY_MODE, meaning: AUTONOMY_MODE_MEANING[mode] })),
    executionModeBounds: Object.entries(HIGHEST_MODE_FOR_EXECUTION_MODE).map(([executionMode, highestAutonomyMode]) => ({
      executionMode,
      highestAutonomyMode,
    })),
    modes: [
      {
        mode: 'A' as const,
        title: 'Command pack plus a social command',
        description:
          'A deposit pack (approve and depositWithAcks calldata) the depositor signs in their own wallet, with the partnerbot social command. Execution from a social command is unverified, so Mode C is always presented beside it.',
        envGates: [] as string[],
        refusalCodes: [] as string[],
      },
      {
        mode: 'B' as const,
        title: "Operator-wallet submission (the operator's own partner wallet only)",
        description:
          "One prompt to the partner for the operator's own wallet, after every gate passes and with an exact confirmPlanHash. Never a user-deposit path; complete only on on-chain proof.",
        envGates: [
          'PARTNERBOT_DEPOSIT_EXECUTION_ENABLED',
          'OWNER_APPROVED_PARTNER_WALLET_DEPOSIT',
          'PARTNER_API_KEY',
          'PARTNER_WALLET_ADDRESS',
        ],
        refusalCodes: ['MODE_B_DISABLED', 'OWNER_APPROVAL_REQUIRED', 'PARTNER_KEY_MISSING', 'RECEIVER_NOT_PARTNER_WALLET'],
      },
      {
        mode: 'C' as const,
        title: "The app's deposit widget with the amount prefilled",
        description: 'Always works; the recommended fallback. The depositor signs in their own browser wallet.',
        envGates: [] as string[],
        refusalCodes: [] as string[],
      },
    ],
    mandatoryFuses: REQUIRED_AUTONOMY_FUSES.map((kind) => {
      const fuse = FUSE_CATALOGUE[kind];
      return {
        kind,
        label: fuse.label,
        unit: fuse.unit,
        min: fuse.min ?? null,
        max: fuse.max ?? null,
        requiredForCapsule: fuse.requiredForCapsule,
        widening:
          fuse.unit === 'flag' ? 'an on/off fuse: present or missing' : 'a larger limit is looser: a caller may tighten it, never widen it',
      };
    }),
    liveAutonomyAcknowledgment: {
      description:
        'Required for live_candidate only, and no mode string stands in for it. Every field must be literally true, with acknowledgedAt an ISO 8601 timestamp that is not ahead of the server clock and at most a day old. It records what the user understands; the service treats it as no permission to act and executes nothing.',
      fields: LIVE_AUTONOMY_ACK_FIELDS.map((f) => ({ ...f, type: 'boolean' as const, mustBe: true as const })),
      timestampField: ACK_TIMESTAMP_FIELD,
      maxAgeSeconds: LIVE_ACK_MAX_AGE_SECONDS,
      futureSkewSeconds: LIVE_ACK_FUTURE_SKEW_SECONDS,
    },
    x402CallPlan: {
      lane: lane.lane,
      laneReason: lane.reason,
      settlesHere: lane.settlesHere,
      paymentChain: lane.paymentChain,
      chainId: lane.chainId,
      asset: lane.asset,
      steps: [
        'POST /api/vaults/x402/{serviceName}/requirements: the server rebuilds the payment requirements (amount, network, asset, payTo); anything the buyer supplies is ignored.',
        'POST /api/vaults/x402/{serviceName} with the service input and no payment header: HTTP 402 with the v1 body { x402Version, error, accepts } and the v2 PAYMENT-REQUIRED header.',
        'Sign an EIP-3009 TransferWithAuthorization for exactly the required amount to the pinned payTo, in your own wallet.',
        'Repeat the call with X-PAYMENT (v1) or PAYMENT-SIGNATURE (v2): the facilitator settles, and the answer is 200 with X-PAYMENT-RESPONSE and PAYMENT-RESPONSE.',
        'An answer of 202 X402_SETTLEMENT_UNKNOWN means the settlement is being reconciled: do not pay again.',
      ],
      services: PAID_VAULT_SERVICES.map((s) => ({
        serviceName: s.name,
        title: s.title,
        route: `POST ${paidServiceRoute(s.name)}`,
        requirementsRoute: `POST ${paidServiceRoute(s.name)}/requirements`,
        priceUnits: s.priceUnits.toString(),
        priceUsdg: formatUsdgUnits(s.priceUnits),
        freeRoute: s.freeRoute,
      })),
    },
    truthRules: [...TRUTH_RULES],
  };
}
