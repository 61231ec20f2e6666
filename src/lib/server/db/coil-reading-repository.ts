/**
 * The thesis of a generation and its reading, kept with the generation's receipt (issue 33):
 * never with the Coil, which is content-addressed and may be the basket of two different
 * theses. Who may read a row is receipts/visibility.ts `mayReadThesis`; every query here spells
 * it as a filter, so no read returns a row its viewer may not read
 * (docs/visibility.md#the-thesis-and-its-reading).
 */
import { canonicalJson, hashCanonical } from '../canonical';
import type { ServerTime } from '../clock';
import type { ReadingViewer } from '../receipts/visibility';
import type { Corrections, ThesisReading } from '../strategist/types';
import { getDb } from './client';

export interface KeptReading {
  receiptId: string;
  thesis: string;
  reading: ThesisReading;
  corrections?: Corrections;
}

export interface SaveReadingInput extends KeptReading {
  manifestHash: string;
  ownerAddress: string | null;
  builderTokenHash: string | null;
  /** The share card's receipt id of a copy the owner chose to share; null otherwise. */
  sharedAs: string | null;
  /** The server's clock, never a caller's `nowIso`. */
  storedAt: ServerTime;
}

/** How many readings of one Coil a viewer gets back: the newest first. */
export const READINGS_PER_COIL = 5;

const readingId = (r: SaveReadingInput) =>
  hashCanonical(['coil-reading', r.receiptId, r.ownerAddress, r.builderTokenHash, r.sharedAs, r.thesis, r.corrections ?? null]);

/** Stores a reading; the same generation repeated (same receipt, reader, thesis, corrections) stays one row. */
export async function saveCoilReading(input: SaveReadingInput): Promise<void> {
  const id = readingId(input);
  await getDb().coilReading.upsert({
    where: { id },
    create: {
      id,
      receiptId: input.receiptId,
      manifestHash: input.manifestHash,
      ownerAddress: input.ownerAddress,
      builderTokenHash: input.builderTokenHash,
      sharedAs: input.sharedAs,
      thesis: input.thesis,
      readingJson: canonicalJson(input.reading),
      correctionsJson: input.corrections ? canonicalJson(input.corrections) : null,
      storedAt: input.storedAt,
    },
    update: {},
  });
}

/** `mayReadThesis` as a Prisma filter: the viewer's wallet's rows, and its browser's rows saved without a wallet. */
function readableBy(viewer: ReadingViewer) {
  const own = [
    ...(viewer.wallet !== null ? [{ ownerAddress: viewer.wallet }] : []),
    ...(viewer.builderTokenHash ? [{ ownerAddress: null, builderTokenHash: viewer.builderTokenHash }] : []),
  ];
  return own.length ? { OR: own } : undefined;
}

type Row = { receiptId: string; thesis: string; readingJson: string; correctionsJson: string | null };

function kept(row: Row): KeptReading {
  return {
    receiptId: row.receiptId,
    thesis: row.thesis,
    reading: JSON.parse(row.readingJson) as ThesisReading,
    ...(row.correctionsJson ? { corrections: JSON.parse(row.correctionsJson) as Corrections } : {}),
  };
}

const SELECT = { receiptId: true, thesis: true, readingJson: true, correctionsJson: true } as const;

/**
 * The viewer's own readings of a Coil, newest first (the same thesis and corrections read again
 * once: the newest), at most READINGS_PER_COIL. Empty for a viewer with neither a wallet nor a
 * claim token, and for everyone but the wallet or browser that generated it.
 */
export async function readingsOf(manifestHash: string, viewer: ReadingViewer): Promise<KeptReading[]> {
  const filter = readableBy(viewer);
  if (!filter) return [];
  const rows = await getDb().coilReading.findMany({
    where: { manifestHash, sharedAs: null, ...filter },
    orderBy: [{ storedAt: 'desc' }, { id: 'desc' }],
    take: READINGS_PER_COIL * 4,
    select: SELECT,
  });
  const seen = new Set<string>();
  const out: KeptReading[] = [];
  for (const row of rows) {
    const key = canonicalJson([row.thesis, row.correctionsJson]);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(kept(row));
    if (out.length === READINGS_PER_COIL) break;
  }
  return out;
}

/** The newest thesis of each of these Coils the viewer may read (My Coils). */
export async function newestThesesOf(manifestHashes: string[], viewer: ReadingViewer): Promise<Map<string, string>> {
  const filter = readableBy(viewer);
  const theses = new Map<string, string>();
  if (!filter || manifestHashes.length === 0) return theses;
  const rows = await getDb().coilReading.findMany({
    where: { manifestHash: { in: manifestHashes }, sharedAs: null, ...filter },
    orderBy: [{ storedAt: 'desc' }, { id: 'desc' }],
    select: { manifestHash: true, thesis: true },
  });
  for (const row of rows) if (!theses.has(row.manifestHash)) theses.set(row.manifestHash, row.thesis);
  return theses;
}

/** The thesis its owner chose to share with a share card: public to anyone who names the card. */
export async function sharedReadingOf(cardReceiptId: string): Promise<KeptReading | undefined> {
  const row = await getDb().coilReading.findFirst({
    where: { sharedAs: cardReceiptId },
    orderBy: [{ storedAt: 'desc' }, { id: 'desc' }],
    select: SELECT,
  });
  return row ? kept(row) : undefined;
}

/**
 * The owner's explicit act of sharing the thesis with a share card: a public copy of the
 * viewer's newest reading of the Coil, bound to the card's receipt id. Answers whether there
 * was one to share.
 */
export async function shareReading(manifestHash: string, viewer: ReadingViewer, cardReceiptId: string, at: ServerTime): Promise<boolean> {
  const [newest] = await readingsOf(manifestHash, viewer);
  if (!newest) return false;
  await saveCoilReading({ ...newest, manifestHash, ownerAddress: null, builderTokenHash: null, sharedAs: cardReceiptId, storedAt: at });
  return true;
}

/** A claim (docs/visibility.md#claiming) takes the browser's readings of the Coil to the wallet too. */
export async function claimReadings(builderTokenHash: string, manifestHash: string, owner: string, at: ServerTime): Promise<void> {
  const rows = await getDb().coilReading.findMany({
    where: { manifestHash, ownerAddress: null, builderTokenHash, sharedAs: null },
    select: SELECT,
  });
  for (const row of rows)
    await saveCoilReading({ ...kept(row), manifestHash, ownerAddress: owner, builderTokenHash: null, sharedAs: null, storedAt: at });
}
