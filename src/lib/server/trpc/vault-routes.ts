/**
 * The vault routes the vault schema lists (`GET /api/vaults/schema`, `routes`), derived from the
 * procedures' own REST metadata: every route under /api/vaults and /api/partnerbot/vault-deposit,
 * with its method and path as the procedure declares them. Adding a procedure there adds its
 * route. The schema words each route's purpose more briefly than its summary (below, in the
 * order the schema lists them); a route without a purpose here is listed after them with its
 * summary. The application router registers itself once it is built (router.ts).
 */
import type { AnyProcedure, AnyRouter } from '@trpc/server';
import type { VaultRoute } from '../vaults/schema';
import type { SvcMeta } from './meta';
import { procedureRecord, REST_PREFIX } from './route-table';

/** The purpose of each vault route as the schema states it, by procedure path, in the schema's order. */
export const VAULT_ROUTE_PURPOSES: Readonly<Record<string, string>> = {
  'vaults.list': 'the registered vaults (V1 Rail A vault, V2 canonical vault)',
  'vaults.schema': 'this schema',
  'vaults.assetRegistry': 'source-verified assets with oracle and jurisdiction policies',
  'vaults.readiness': 'the public deposit gate of the Rail A vault, read live',
  'vaults.v2Status': 'fresh on-chain status of the V2 vault suite',
  'vaults.vault': 'one vault: identity and deposit route',
  'vaults.figures': "a vault's total assets and share price, read live, and whether it can preview a deposit",
  'vaults.depositLink': 'vault identity, ack texts and hashes, the deposit widget link; a full pack with amount and receiver',
  'vaults.depositAccount':
    "a wallet's USDG balance and its allowance for the vault, read live (the deposit page's Max and its approval step)",
  'vaults.approvalStatus': 'whether an approval transaction is proven on chain (the deposit page enables the deposit only then)',
  'vaults.depositPartnerbotIntent': 'a Mode A deposit pack pinned to this vault',
  'vaults.depositIntent': 'a deposit intent, refused while the deposit gate is closed',
  'vaults.withdrawIntent': 'a withdraw intent, refused while the deposit gate is closed',
  'vaults.createManifest': 'create a vault manifest with the documented defaults',
  'vaults.validateManifest': 'validate a vault manifest (200 with issues)',
  'vaults.compileRebalancePolicy': 'compile a rebalance policy: never executable, requires user approval',
  'vaultRail.rebalanceAudit': 'audit a reported rebalance against the compiled rebalance policy (reported, unverified)',
  'vaultRail.partnerRebalance': 'a vault_operator_rebalance plan for the partner rail: never submittable',
  'vaults.receipt': 'a deterministic vault receipt for a manifest, a pack or a deposit transaction',
  'vaultAnalysis.calculateFees': 'the fee split at a NAV reading, by the fee schedule above',
  'vaultRail.providerRewards': 'a fee amount split over the reward cohorts: planned, not funded, not claimable',
  'vaultAnalysis.riskScore': 'a structural 0-100 risk heuristic of a vault composition',
  'vaultAnalysis.compare': 'two to five vaults side by side, never ranked or recommended',
  'x402.serviceRequirements': 'payment requirements of a paid vault service on the selected x402 lane',
  'x402.paidCall': 'a paid vault service (x402): the analysis services and the deposit pack',
  'partnerbot.prepareCommand': 'a Mode A deposit pack with the social command and Mode C',
  'partnerbot.depositCommand': 'the partnerbot deposit command alone, with Mode C beside it',
  'partnerbot.submitIntent': "Mode B for the operator's own partner wallet only",
  'partnerbot.depositStatus': 'deposit completion from on-chain proof only',
};

export function isVaultRoutePath(path: string): boolean {
  return path === '/vaults' || path.startsWith('/vaults/') || path.startsWith('/partnerbot/vault-deposit/');
}

export function vaultRoutesOf(procedures: Record<string, AnyProcedure>): VaultRoute[] {
  const order = Object.keys(VAULT_ROUTE_PURPOSES);
  const rank = (procedurePath: string) => (order.includes(procedurePath) ? order.indexOf(procedurePath) : order.length);
  return Object.entries(procedures)
    .flatMap(([procedurePath, procedure]) => {
      const openapi = (procedure._def.meta as SvcMeta | undefined)?.openapi;
      if (!openapi || !isVaultRoutePath(openapi.path)) return [];
      const purpose = VAULT_ROUTE_PURPOSES[procedurePath] ?? openapi.summary ?? '';
      return [{ procedurePath, route: { method: openapi.method as VaultRoute['method'], path: `${REST_PREFIX}${openapi.path}`, purpose } }];
    })
    .sort((a, b) => rank(a.procedurePath) - rank(b.procedurePath))
    .map((entry) => entry.route);
}

let registered: VaultRoute[] | undefined;

/** Called once by the application router after it is built. */
export function registerVaultRoutes(router: AnyRouter): void {
  registered = vaultRoutesOf(procedureRecord(router));
}

export function vaultRoutes(): VaultRoute[] {
  if (!registered) throw new Error('the application router has not registered its vault routes');
  return registered;
}
