/**
 * The USDG vault family under /api/vaults (interface 4.1, 4.4, 4.6, 4.7): the vault registry and
 * schema, the asset registry, the deposit gate, the V2 status, deposit links and packs,
 * gated deposit and withdraw intents, manifests, rebalance policies and receipts. Every
 * response keeps `vaultChain` and `x402PaymentChain` apart and carries `sourceVerification`.
 */
import { router } from '../../init';
import { listProcedure } from './list';
import { schemaProcedure } from './schema';
import { assetRegistryProcedure } from './asset-registry';
import { readinessProcedure } from './readiness';
import { v2StatusProcedure } from './v2-status';
import { vaultProcedure } from './vault';
import { depositLinkProcedure } from './deposit-link';
import { depositAccountProcedure } from './deposit-account';
import { figuresProcedure } from './figures';
import { approvalStatusProcedure } from './approval-status';
import { depositPartnerbotIntentProcedure } from './deposit-partnerbot-intent';
import { depositIntentProcedure } from './deposit-intent';
import { withdrawIntentProcedure } from './withdraw-intent';
import { createManifestProcedure } from './create-manifest';
import { validateManifestProcedure } from './validate-manifest';
import { compileRebalancePolicyProcedure } from './compile-rebalance-policy';
import { receiptProcedure } from './receipt';

export const vaultsRouter = router({
  list: listProcedure,
  schema: schemaProcedure,
  assetRegistry: assetRegistryProcedure,
  readiness: readinessProcedure,
  v2Status: v2StatusProcedure,
  vault: vaultProcedure,
  figures: figuresProcedure,
  depositLink: depositLinkProcedure,
  depositAccount: depositAccountProcedure,
  approvalStatus: approvalStatusProcedure,
  depositPartnerbotIntent: depositPartnerbotIntentProcedure,
  depositIntent: depositIntentProcedure,
  withdrawIntent: withdrawIntentProcedure,
  createManifest: createManifestProcedure,
  validateManifest: validateManifestProcedure,
  compileRebalancePolicy: compileRebalancePolicyProcedure,
  receipt: receiptProcedure,
});
