/**
 * The autonomy-path schema (spec 4.4 `GET /api/partnerbot/schema`): the routes of the path
 * a trading agent may follow, the deposit modes, the fuses every capsule must carry, the
 * shape of the acknowledgment a user gives before any live autonomy, and the x402 call plan
 * for the paid services. Descriptive only: the service executes nothing on this path.
 */
import { FUSE_CATALOGUE, REQUIRED_CAPSULE_FUSES } from '../coil/fuse-catalogue';
import { AGENT_WORKFLOWS, TRUTH_RULES } from '../registry/agents';
import { formatUsdgUnits } from '../vaults/amount';
import { PAID_VAULT_SERVICES, paidServiceRoute } from '../x402/catalogue';
import type { LaneSelection } from '../x402/lanes';

export const PARTNERBOT_SCHEMA_VERSION = 'svc-partnerbot-schema-1.0.0';

/**
 * What a user confirms, each literally `true`, before any agent of theirs runs a capsule
 * without a per-order confirmation. It is a record of understanding, never a permission
 * this service acts on: the service places no order in any mode.
 */
export const LIVE_AUTONOMY_ACK_FIELDS: ReadonlyArray<{ field: string; statement: string }> = [
  { field: 'userUnderstandsNotInvestmentAdvice', statement: 'Nothing this service produces is investment advice.' },
  { field: 'userUnderstandsSvcNeverExecutes', statement: 'This service never places, fills or settles an order; my own agent or the partner does, under my control.' },
  { field: 'userUnderstandsPartnerExecutesTrade', statement: 'Stock-token trades are run by the external partner on its own terms.' },
  { field: 'userUnderstandsTokenizedExposure', statement: 'Tokenized stocks and ETFs are economic exposure, not direct ownership of shares.' },
  { field: 'userKeepsOwnKeysAndCredentials', statement: 'My keys, seed phrases and brokerage logins stay with me; this service never receives them.' },
  { field: 'userAcceptsMandatoryFuses', statement: 'The mandatory fuses bound every run and a breach aborts it.' },
  { field: 'userUnderstandsJobStatusIsNotSettlement', statement: 'A job status is the partner\'s word; only an on-chain confirmed receipt proves a trade.' },
  { field: 'userUnderstandsRegionalRestrictions', statement: 'Availability of stock tokens and of the partner is restricted by region; verifying it is between me and the partner.' },
  { field: 'userCanRevokeAtAnyTime', statement: 'I can stop my agent at any time; nothing here keeps running on its own.' },
];

export interface PartnerbotSchemaInput {
  lane: LaneSelection;
  now: Date;
}

function routesOf(railIds: ReadonlyArray<string | null>) {
  return AGENT_WORKFLOWS.filter((w) => railIds.includes(w.railId)).flatMap((w) =>
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
    routes: routesOf(['rail_a_vault_deposit', 'rail_b_partner_stock_token']),
    modes: [
      {
        mode: 'A' as const,
        title: 'Command pack plus a social command',
        description: 'A deposit pack (approve and depositWithAcks calldata) the depositor signs in their own wallet, with the partnerbot social command. Execution from a social command is unverified, so Mode C is always presented beside it.',
        envGates: [] as string[],
        refusalCodes: [] as string[],
      },
      {
        mode: 'B' as const,
        title: "Operator-wallet submission (the operator's own partner wallet only)",
        description: 'One prompt to the partner for the operator\'s own wallet, after every gate passes and with an exact confirmPlanHash. Never a user-deposit path; complete only on on-chain proof.',
        envGates: ['PARTNERBOT_DEPOSIT_EXECUTION_ENABLED', 'OWNER_APPROVED_PARTNER_WALLET_DEPOSIT', 'PARTNER_API_KEY', 'PARTNER_WALLET_ADDRESS'],
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
    mandatoryFuses: REQUIRED_CAPSULE_FUSES.map((kind) => {
      const fuse = FUSE_CATALOGUE[kind];
      return {
        kind,
        label: fuse.label,
        unit: fuse.unit,
        min: fuse.min ?? null,
        max: fuse.max ?? null,
        capsuleDefault: fuse.capsuleDefault,
      };
    }),
    liveAutonomyAcknowledgment: {
      description:
        'Every field must be literally true, with acknowledgedAt an ISO 8601 timestamp. It records what the user understands; the service treats it as no permission to act and executes nothing.',
      fields: LIVE_AUTONOMY_ACK_FIELDS.map((f) => ({ ...f, type: 'boolean' as const, mustBe: true as const })),
      timestampField: 'acknowledgedAt' as const,
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
