/** Long descriptions of the tools family (routers/tools/), keyed by procedure path. */
import { PASSPORT_COMPONENTS } from '../../receipts/passport';
import { ORACLE_POLICY_VERSION } from '../../registry';

const COIL_MODES_DOC =
  'Coil modes: `paper` and `readiness-check` are planning modes (an address outside the registry is the warning UNKNOWN_ADDRESS); `brokerage-mcp-plan` and `live` are live modes (the error NONCANONICAL_ASSET). A paper Coil never sets liveExecutionAllowed.';

/** Every route that issues a receipt also states how a fork's parent is resolved. */
const FORK_DOC =
  "A fork (forkOf set) gets its parent from the stored receipts you may see (those under no wallet, and your own wallet's): parentManifestHash, when absent, is stamped with the newest receipt of the forkOf slug, and when given must be the manifest of one of them (422 FORK_PARENT_MISMATCH); a forkOf with no such receipt is 422 FORK_PARENT_NOT_FOUND, never a root. The receipt fingerprints the Coil with its parent.";

const issuesReceipt = (description: string) => `${description} ${FORK_DOC}`;

export const TOOLS_DOCS: Readonly<Record<string, string>> = {
  'tools.generateCoil': `Runs the strategist (STRATEGIST_PROVIDER) on the thesis and returns a Coil that validates, its health, a coil_manifest receipt, the provider labels and \`reading\` (how the thesis was read: matched words, included, excluded, pinned weights, stance, risk words, words not understood). A thesis that excludes so much that no basket can hold what is left is 422 THESIS_NOT_EXPRESSIBLE. Strategist failures in \`partner\` mode answer 503/502 \`{ error, code, prompt }\`. As the MCP tool svc_generate_coil it never asks the partner (MCP tools send nothing out): the local strategist answers, with providerMeta.usedFallback true and fallbackReason MCP_TRANSMITS_NOTHING unless mock was requested. The Coil is saved with its receipt. ${COIL_MODES_DOC}`,
  'tools.validateCoil': issuesReceipt(
    `An invalid Coil is 200 with issues (each with severity, code, message, path) and validationStatus valid, valid-with-warnings or invalid. A value that is not a Coil at all is 400 COIL_SHAPE. ${COIL_MODES_DOC}`,
  ),
  'tools.scoreCoil': issuesReceipt(
    'Structure and readiness only (validity 30, canonical assets 20, diversification 20, risk posture 15, documentation 15); never returns, prices or performance.',
  ),
  'tools.compileCapsule': issuesReceipt(
    "Execution modes paper_only, preview_only, human_confirm, agentic_mcp_enabled (needs options.userAcknowledgedAgenticMode: true, else 422 CAPSULE_COMPILE with AGENTIC_ACK_REQUIRED). maxTotalNotionalUsd defaults to the Coil's maxTotalNotional fuse or 500 and may not exceed 10000 (422 NOTIONAL_CAP_EXCEEDED) or the Coil's own fuse. Missing required fuses get conservative defaults listed in fusesDefaulted. The capsule lists what a human must still confirm and never contains an order. Paper Coils: 422 CAPSULE_COMPILE (PAPER_COIL); invalid Coils: 422 COIL_INVALID.",
  ),
  'tools.riskAudit': issuesReceipt(
    'Fuses come from `fuses[]` and from the fields that imply them (risk.oracleStalenessSeconds, risk.maxSingleAssetWeightBps, risk.allowNonCanonicalAssets false, rebalancePolicy.maxSlippageBps, rebalancePolicy.maxDailyTurnoverBps). Returns the fuses, the kinds required for a capsule, the missing ones, issues (DUPLICATE_FUSE, FUSE_BOUNDS, FUSE_CONFLICT, MISSING_REQUIRED_FUSE, CONCENTRATION) and fuseChecksum = sha256(JCS([{kind, limit}] sorted by kind)). Issues a risk_fuse receipt.',
  ),
  'tools.driftCheck': issuesReceipt(
    "driftBps = current - target (signed); an entry breaches when |driftBps| >= the Coil's rebalancePolicy.driftThresholdBps. A proposal (previews, human confirmation, three abort conditions, no notional, no quantity) appears only when breachCount > 0. Without currentWeightsBps there is no reading: entries carry null readings and nothing is invented. Symbols held outside the basket drift from a target of 0. Invalid Coils: 422 COIL_INVALID.",
  ),
  'tools.receipt': issuesReceipt(
    'kind: coil_manifest (default), validation or risk_fuse. manifestHash = sha256(RFC 8785 JCS of the Coil without createdAt, addresses checksummed); weightsChecksum = sha256(JCS of [lowercase address, weightBps] pairs sorted by address); receiptId = hrcpt_ + 32 hex of sha256(JCS({generatedAt, kind, manifestHash})). The same Coil, kind and nowIso give the same receipt; it is stored once per wallet. Also returns the provenance chain from stored receipts.',
  ),
  'tools.shareCard': issuesReceipt(
    'Title, assets and weights, memo, receipt id and disclaimer. The card is also served as an SVG image at GET /api/share-card/{receiptId}.svg (imageUrl). shareUrl = {shareUrlBase}/{receiptId}.svg, where shareUrlBase defaults to {origin}/api/share-card. A Coil whose texts read as a performance claim or as an execution claim is 422 SHARE_CARD_REJECTED (PERFORMANCE_CLAIM, EXECUTION_CLAIM_TEXT, naming the field); invalid Coils are 422 COIL_INVALID.',
  ),
  'tools.storedShareCard':
    "The card of a stored receipt (the same card POST /api/tools/share-card returned, rebuilt from the stored receipt and Coil), with its Coil's manifest hash: what the web app's share page /coils/{manifestHash}/share/{receiptId} shows and puts in its Open Graph and Twitter card tags, next to the PNG (GET /api/share-card/{receiptId}.png) and the SVG. 404 RECEIPT_NOT_FOUND for a receipt this caller cannot read (docs/visibility.md). Reads only: nothing is stored.",
  'tools.verifyCoil': issuesReceipt(
    "Recomputes manifestHash, weightsChecksum, receiptId, coilId, parentManifestHash, validationStatus, fuseChecksum (risk_fuse receipts), checks anchoring and liveOrderSent, and checks the service's signature against its published keys (GET /api/receipts/keys): a signature that does not verify is the mismatch `signature`; an unsigned receipt is judged on its hashes and says signature.status absent. ok is true only when nothing mismatches, and every mismatch is named. To check without trusting this service, use the offline CLI (docs/trust-model.md).",
  ),
  'tools.oraclePolicy': `Version ${ORACLE_POLICY_VERSION}: the price source (the oracle adapter, per-token feed configuration), the 24/5 market session, and per asset the price basis and the largest age of a live price. A stale, future-stamped or missing price is unknown, never zero and never live. With \`readings\` ({ tokenAddress, updatedAt, price? }), each stock and ETF token is classified against the server's clock (never nowIso): FRESH (live, price shown), STALE, MISSING, TIMESTAMP_IN_FUTURE (unknown, price null); an address outside the registry is NOT_IN_REGISTRY.`,
  'tools.verifyArtifactReceipt':
    'For the receipts of the autonomy path, the audits, the fee claim, the reward plan, the oracle policy and the prepared commands. Recomputes subjectHash = sha256(RFC 8785 JCS of the artifact without fields named like credentials) and receiptId = arcpt_ + 32 hex of sha256(JCS({ generatedAt, kind, subjectHash })), and checks anchoring, liveOrderSent and the signature of the service (the mismatch `signature` when it does not verify against GET /api/receipts/keys); ok is true only when nothing mismatches, and every mismatch is named. `subject` is the artifact the receipt came with (e.g. the `report` of a post-run audit, the `claim` of a fee claim); an autonomy_path receipt carries its own binding and needs none. Coil receipts (hrcpt_) are verified by POST /api/coil/verify.',
  'tools.provenance':
    'Rendered from the receipts stored in the database (so it survives restarts). forkDepth is 0 for a root. An ancestor named by a stored fork but never stored itself ends the chain with stored: false (rootUnresolved). 404 MANIFEST_NOT_FOUND when no receipt of the manifest is stored.',
  'tools.storedCoil':
    'The Coil as first stored under this manifest hash (any tool or the strategist stores the Coils it handles), the strategists that coiled it, its health (0 to 100, structure and readiness only), up to 20 of its stored receipts (oldest first) and its provenance chain. A manifest hash is the address of a Coil: the web app links each Coil page by it. 404 MANIFEST_NOT_FOUND when no Coil with this hash is stored. Reads only: nothing is stored.',
  'tools.passport': `The "agent" is whoever coiled the manifests: a strategist id (\`mock\` or \`partner\`, the providerMeta.provider of generate-coil and POST /api/agent/svc) or a wallet address (the Coils saved under that wallet's session). Points, each capped: ${Object.entries(
    PASSPORT_COMPONENTS,
  )
    .map(([k, v]) => `${k} x${v.multiplier} capped at ${v.cap}`)
    .join(
      '; ',
    )} (caps sum to 1000). Manifests are counted once (distinct manifest hashes); forks are distinct stored manifests whose parentManifestHash is one of the agent's; average score is the mean Coil health (0-100) x2 (no Coil: null, 0 points); receipts are distinct receipt ids. Computed from stored Coils and receipts; never about returns.`,
};
