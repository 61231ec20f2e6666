/**
 * The bench's yardstick (issue 13): a bare `node:http` server that does, per route, only the
 * work the answer needs — read the JSON body, parse it with the domain's own schema, call the
 * same domain functions (and the same stores) as the service's procedure, write the JSON.
 * No framework, no middleware, no guards, no rate limit, no logs. `npm run bench` compares
 * the service with it; it is never deployed.
 *
 * Built by bench/http-bench.mjs with vite (for the `$lib`/`$generated` aliases) and started
 * with PORT and DATABASE_URL.
 */
import http from 'node:http';
import { config } from '$lib/server/config';
import { requireValidCoil } from '$lib/server/coil/capsule';
import { driftCheck } from '$lib/server/coil/drift';
import { scoreCoil } from '$lib/server/coil/health';
import { coilSchema, type Coil } from '$lib/server/coil/manifest';
import { validateCoil } from '$lib/server/coil/validate';
import { saveCoilWithReceipt, storedCoilsVisibleTo } from '$lib/server/db/coil-repository';
import { applyMigrations } from '$lib/server/db/migrate';
import { renderProvenance } from '$lib/server/receipts/provenance';
import { buildReceipt, verifyReceipt, type Receipt } from '$lib/server/receipts/receipt';
import { signatureKeyIdOf, signIssued, type Issued } from '$lib/server/receipts/signature';
import { readServerClock } from '$lib/server/clock';
import { readySigner, serviceSigner } from '$lib/server/signing-key';
import { signingKeysToCheck } from '$lib/server/db/receipt-log-repository';
import { publicRegistry } from '$lib/server/registry';
import { generateCoil } from '$lib/server/strategist';
import { serviceHealth } from '$lib/server/system/health';
import { findPaidService } from '$lib/server/x402/catalogue';
import { facilitatorLaneState, facilitatorSettingsFrom, vaultServiceLaneOf } from '$lib/server/x402/lanes';
import { refusalOf } from '$lib/server/x402/paid-call';
import { buildRequirements } from '$lib/server/x402/requirements';

type Body = Record<string, unknown>;
type Answer = { status: number; body: unknown; headers?: Record<string, string> };

/**
 * `logged`: the service's rule (receipts/log-policy.ts): a generated Coil and an explicit receipt
 * are logged, an anonymous tool call is not. Signed once, at the server's clock, and stored with
 * its signature, as the service does (trpc/procedure-kit/coil-store.ts); answers the signed receipt.
 */
async function store(coil: Coil, receipt: Issued<Receipt>, agentId: string | null = null, logged = false) {
  const signed = signIssued(receipt, serviceSigner(config()), readServerClock(), logged);
  await saveCoilWithReceipt({
    logged,
    coil,
    manifestHash: receipt.manifestHash,
    ownerAddress: null,
    agentId,
    score: scoreCoil(coil).total,
    storedAt: new Date(),
    receipt: signed,
  });
  return signed;
}

const POST: Record<string, (body: Body) => Promise<Answer>> = {
  '/api/tools/validate-coil': async (body) => {
    const coil = coilSchema.parse(body.coil);
    const validation = validateCoil(coil);
    const receipt = await store(coil, buildReceipt(coil, 'validation', new Date()));
    return { status: 200, body: { tool: 'validate-coil', validation, receipt } };
  },
  '/api/tools/receipt': async (body) => {
    const coil = coilSchema.parse(body.coil);
    const receipt = await store(coil, buildReceipt(coil, 'coil_manifest', new Date()), null, true);
    const lineage = await storedCoilsVisibleTo(null).lineage(receipt.manifestHash);
    return { status: 200, body: { tool: 'receipt', receipt, provenance: renderProvenance(receipt.manifestHash, (h) => lineage.get(h)) } };
  },
  '/api/tools/generate-coil': async (body) => {
    const now = new Date();
    const generated = await generateCoil(
      { prompt: String(body.prompt) },
      { config: { strategistProvider: 'mock', partner: { timeoutMs: 1000 } }, now },
    );
    const receipt = await store(generated.coil, buildReceipt(generated.coil, 'coil_manifest', now), generated.providerMeta.provider, true);
    return { status: 200, body: { tool: 'generate-coil', ...generated, receipt } };
  },
  '/api/tools/drift-check': async (body) => {
    const coil = coilSchema.parse(body.coil);
    requireValidCoil(coil);
    const receipt = await store(coil, buildReceipt(coil, 'coil_manifest', new Date()));
    const report = driftCheck({
      coil,
      coilId: receipt.coilId,
      manifestHash: receipt.manifestHash,
      currentWeightsBps: body.currentWeightsBps as never,
      now: new Date(),
    });
    return { status: 200, body: { tool: 'drift-check', report, receipt } };
  },
  // The receipt is checked against the same key set as the service's (trpc/service-keys.ts);
  // the bench sends a receipt the service issued.
  '/api/coil/verify': async (body) => {
    const coil = coilSchema.parse(body.coil);
    const keys = await signingKeysToCheck(signatureKeyIdOf(body.receipt as object));
    return { status: 200, body: { tool: 'verify-coil', verification: verifyReceipt(coil, body.receipt as Record<string, unknown>, keys) } };
  },
  // Without a payment header the paid call's outcome is "payment required" (x402/paid-call.ts
  // `payForAnswer`, before any other work): the same challenge, with its chain blocks and the
  // two invariants of the x402 family, as the service answers.
  '/api/vaults/x402/vault-risk-score': async () => {
    const cfg = config();
    const state = facilitatorLaneState(facilitatorSettingsFrom(cfg.facilitator));
    const requirements = buildRequirements(findPaidService('vault-risk-score')!, { payTo: state.payTo!, origin: cfg.origin });
    const challenge = refusalOf({ kind: 'payment_required', requirements }, vaultServiceLaneOf(cfg.facilitator));
    return { status: 402, body: { ...challenge.body, notInvestmentAdvice: true, liveOrderSent: false }, headers: challenge.headers };
  },
};

const GET: Record<string, () => Answer> = {
  '/api/health': () => ({ status: 200, body: serviceHealth(config()) }),
  '/api/stocks/registry': () => ({ status: 200, body: publicRegistry() }),
};

function send(res: http.ServerResponse, answer: Answer): void {
  res.writeHead(answer.status, { 'content-type': 'application/json; charset=utf-8', ...answer.headers });
  res.end(JSON.stringify(answer.body));
}

async function answer(req: http.IncomingMessage): Promise<Answer> {
  const path = (req.url ?? '/').split('?')[0]!;
  if (req.method === 'GET' && GET[path]) return GET[path]();
  const handler = req.method === 'POST' ? POST[path] : undefined;
  if (!handler) return { status: 404, body: { error: 'not found' } };
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return handler(JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Body);
}

await applyMigrations(config().databaseUrl);
await readySigner(config(), readServerClock());
http
  .createServer((req, res) => {
    answer(req).then(
      (a) => send(res, a),
      (error: unknown) => send(res, { status: 500, body: { error: String(error) } }),
    );
  })
  .listen(Number(process.env.PORT ?? 3999), '127.0.0.1', () => console.log('bare server ready'));
