import { config } from '$lib/server/config';
import { applyMigrations } from '$lib/server/db/migrate';
import { saveCoilWithReceipt } from '$lib/server/db/coil-repository';
import { getDb } from '$lib/server/db/client';
import { buildReceipt } from '$lib/server/receipts/receipt';
import { coilSchema } from '$lib/server/coil/manifest';
import { scoreCoil } from '$lib/server/coil/health';
import { canonicalJson } from '$lib/server/canonical';
import Database from 'better-sqlite3';
await applyMigrations(config().databaseUrl);
const base = coilSchema.parse({ schemaVersion: '1.0.0', slug: 'x', name: 'X', mode: 'paper', assets: [{ ticker: 'NVDA', tokenAddress: '0xd0601CE157Db5bdC3162BbaC2a2C8aF5320D9EEC', weightBps: 10000, rationale: 'a' }], risk: { allowNonCanonicalAssets: false, notInvestmentAdvice: true, liveExecutionAllowed: false, oracleStalenessSeconds: 3600, notes: [] }, forkOf: null });
let n = 0;
const next = () => { const coil = { ...base, slug: `s-${n++}` }; return { coil, receipt: buildReceipt(coil, 'coil_manifest', new Date()) }; };
async function time(name: string, count: number, fn: () => unknown) {
  for (let r = 0; r < 3; r++) { const t0 = performance.now(); for (let i = 0; i < count; i++) await fn(); process.stdout.write((((performance.now() - t0) * 1000) / count).toFixed(1) + ' '); }
  console.log(name);
}
await time('build receipt only', 3000, () => next());
await time('prisma saveCoilWithReceipt', 3000, () => { const { coil, receipt } = next(); return saveCoilWithReceipt({ coil, manifestHash: receipt.manifestHash, ownerAddress: null, agentId: null, score: scoreCoil(coil).total, storedAt: new Date(), receipt }); });
const db = new Database(config().databaseUrl.replace(/^file:/, ''));
db.pragma('synchronous = NORMAL');
const insCoil = db.prepare(`INSERT INTO "Coil" ("id","slug","manifestHash","parentManifestHash","forkOf","ownerAddress","agentId","manifestJson","score","createdAt") VALUES (?,?,?,?,?,?,?,?,?,?) ON CONFLICT ("id") DO NOTHING`);
const insRcpt = db.prepare(`INSERT INTO "Receipt" ("id","receiptId","kind","manifestHash","parentManifestHash","weightsChecksum","validationStatus","coilSlug","ownerAddress","receiptJson","createdAt","storedAt") VALUES (?,?,?,?,?,?,?,?,?,?,?,?) ON CONFLICT ("id") DO NOTHING`);
const both = db.transaction((coil: any, receipt: any) => {
  const t = Date.now();
  insCoil.run('c' + n, coil.slug, receipt.manifestHash, null, null, null, null, canonicalJson(coil), 50, t);
  insRcpt.run('r' + n, receipt.receiptId, receipt.kind, receipt.manifestHash, null, receipt.weightsChecksum, receipt.validationStatus, coil.slug, null, canonicalJson(receipt), t, t);
});
await time('raw better-sqlite3, 2 autocommits', 3000, () => { const { coil, receipt } = next(); const t = Date.now();
  insCoil.run('c' + n, coil.slug, receipt.manifestHash, null, null, null, null, canonicalJson(coil), 50, t);
  insRcpt.run('r' + n, receipt.receiptId, receipt.kind, receipt.manifestHash, null, receipt.weightsChecksum, receipt.validationStatus, coil.slug, null, canonicalJson(receipt), t, t); });
await time('raw better-sqlite3, 1 transaction', 3000, () => { const { coil, receipt } = next(); both(coil, receipt); });
const prisma = getDb();
