/**
 * The receipt log's routes read only the entries appended since their last call (issue 27):
 * the tree is kept in memory per database client (db/receipt-log-repository.ts) and caught up
 * from its size on. Before, every head and proof read the whole log and hashed it again, a
 * stall that grew with the log. Checked by counting the rows the repository reads, never by
 * timing, on the inproc project's SQLite file.
 *
 * The tree holds only whole tiles of 256 leaves and the last tile's leaves: an answer about an
 * older tile reads that tile, 256 rows by primary key, and nothing else.
 */
import { generateKeyPairSync } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { closeDb, getDb } from '../../src/lib/server/db/client';
import { CATCH_UP_ROWS, receiptLogTree, receiptLogWithTiles } from '../../src/lib/server/db/receipt-log-repository';
import { tilesOfInclusionAnswer } from '../../src/lib/server/receipts/log';
import { inclusionProof, leafHashOf, rootOf, TILE_HEIGHT, verifyConsistency } from '../../src/lib/server/receipts/merkle';
import { callerFor } from '../support/caller';

const env = { SVC_SIGNING_KEY: generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString() };
const head = async () => (await callerFor({ env }).receiptLog.head()).head;
const consistency = (first: number) => callerFor({ env }).receiptLog.consistency({ first });

/** Every leaf hash the log holds, in order: what the old routes hashed on each call. */
const logged: string[] = [];

async function appendEntries(count: number, at = logged.length): Promise<void> {
  const data = Array.from({ length: count }, (_, i) => {
    const leafHash = leafHashOf(`entry ${at + i} ${Math.random()}`);
    logged[at + i] = leafHash;
    return { index: at + i, leafHash, receiptId: `hrcpt_${String(at + i).padStart(32, '0')}`, appendedAt: new Date() };
  });
  await getDb().receiptLogEntry.createMany({ data });
}

let findMany: MockInstance;
/** The entries the log's queries returned since the last look, and in how many queries. */
async function reads(): Promise<{ rows: number; queries: number }> {
  const results = await Promise.all(findMany.mock.results.map((r) => r.value as Promise<unknown[]>));
  findMany.mockClear();
  return { rows: results.reduce((n, rows) => n + rows.length, 0), queries: results.length };
}

beforeEach(() => {
  findMany = vi.spyOn(getDb().receiptLogEntry, 'findMany');
});
afterEach(() => {
  findMany.mockRestore();
});

describe('the receipt log tree', () => {
  it('reads only the entries appended since the last call, and answers the root of every entry', async () => {
    await appendEntries(50);
    expect(await head()).toMatchObject({ treeSize: 50, rootHash: rootOf(logged) });
    expect((await reads()).rows).toBe(50);

    await appendEntries(3);
    expect(await head()).toMatchObject({ treeSize: 53, rootHash: rootOf(logged) });
    expect((await reads()).rows).toBe(3);

    const proof = await consistency(50);
    expect(proof.secondHead).toMatchObject({ treeSize: 53, rootHash: rootOf(logged) });
    expect(proof.firstHead.rootHash).toBe(rootOf(logged.slice(0, 50)));
    expect((await reads()).rows).toBe(0);
  });

  it('appends each entry once when calls come together', async () => {
    await appendEntries(5);
    const heads = await Promise.all([head(), head(), head()]);
    for (const h of heads) expect(h).toMatchObject({ treeSize: logged.length, rootHash: rootOf(logged) });
    expect((await reads()).rows).toBe(5);
  });

  it('stops at an index not yet visible and goes on from it once it is', async () => {
    const size = logged.length;
    await appendEntries(1, size + 1);
    expect(await head()).toMatchObject({ treeSize: size, rootHash: rootOf(logged.slice(0, size)) });
    await appendEntries(1, size);
    expect(await head()).toMatchObject({ treeSize: size + 2, rootHash: rootOf(logged) });
  });

  it('catches up a large log in queries of a bounded size, so other requests run between them', async () => {
    await appendEntries(2 * CATCH_UP_ROWS + 10);
    expect(await head()).toMatchObject({ treeSize: logged.length, rootHash: rootOf(logged) });
    const { rows, queries } = await reads();
    expect(rows).toBe(2 * CATCH_UP_ROWS + 10);
    expect(queries).toBe(3);
  });

  it('starts from an empty tree on a database client opened after the last one closed', async () => {
    expect((await head()).treeSize).toBe(logged.length);
    await closeDb();
    // Another database, as a test that resets it sees: the entries of the old one are gone.
    await getDb().receiptLogEntry.deleteMany();
    logged.length = 0;
    await appendEntries(2);
    expect(await head()).toMatchObject({ treeSize: 2, rootHash: rootOf(logged) });
  });

  it('reads one tile of 256 rows for an answer about an older tile, and none for the current one', async () => {
    const tile = 2 ** TILE_HEIGHT;
    await appendEntries(2 * tile + 88 - logged.length);
    expect(await head()).toMatchObject({ treeSize: 600, rootHash: rootOf(logged) });
    await reads();

    // Each call's catch-up asks once for entries past the tree, and finds none.
    expect(await head()).toMatchObject({ treeSize: 600, rootHash: rootOf(logged) });
    expect(await reads()).toEqual({ rows: 0, queries: 1 });

    // The first head's last leaves are in tile 1, complete since: that tile is read.
    const proof = await consistency(300);
    expect(proof.firstHead.rootHash).toBe(rootOf(logged.slice(0, 300)));
    expect(verifyConsistency(300, 600, proof.firstHead.rootHash, rootOf(logged), proof.proof)).toBe(true);
    expect(await reads()).toEqual({ rows: tile, queries: 2 });

    // A first head on a tile boundary needs no tile.
    expect((await consistency(2 * tile)).firstHead.rootHash).toBe(rootOf(logged.slice(0, 2 * tile)));
    expect(await reads()).toEqual({ rows: 0, queries: 1 });

    // The inclusion route's reads after it found the entry: leaf 5's tile, once.
    const tree = await receiptLogTree();
    const answering = await receiptLogWithTiles(tree, (t) => tilesOfInclusionAnswer(t, 5, 600));
    expect(answering.inclusionProof(5, 600)).toEqual(inclusionProof(logged, 5));
    expect(answering.root(600)).toBe(rootOf(logged));
    expect(await reads()).toEqual({ rows: tile, queries: 2 });
  });
});
