/**
 * Keyset pagination for "newest first" lists: the cursor names the last row returned
 * (its createdAt and id), so pages stay stable while new rows arrive. The cursor is
 * opaque to clients (base64url); a cursor that does not decode is a 400.
 */
import { SvcError } from '../errors';

export interface PageCursor {
  createdAt: Date;
  id: string;
}

export const DEFAULT_PAGE_LIMIT = 20;
export const MAX_PAGE_LIMIT = 100;

export function encodeCursor(cursor: PageCursor): string {
  return Buffer.from(`${cursor.createdAt.toISOString()}|${cursor.id}`, 'utf8').toString('base64url');
}

export function decodeCursor(value: string): PageCursor {
  const invalid = () =>
    new SvcError('CURSOR_INVALID', 'The cursor is not one this service issued; pass nextCursor from the previous page unchanged', {
      issues: [{ code: 'CURSOR_INVALID', message: 'undecodable cursor', path: 'cursor' }],
    });
  if (!/^[A-Za-z0-9_-]{1,400}$/.test(value)) throw invalid();
  const text = Buffer.from(value, 'base64url').toString('utf8');
  const bar = text.indexOf('|');
  if (bar < 0) throw invalid();
  const createdAt = new Date(text.slice(0, bar));
  const id = text.slice(bar + 1);
  if (Number.isNaN(createdAt.getTime()) || createdAt.toISOString() !== text.slice(0, bar) || id.length === 0) throw invalid();
  return { createdAt, id };
}

/** The Prisma `where` part that selects rows strictly after the cursor in (createdAt desc, id desc) order. */
export function afterCursor(cursor: PageCursor | undefined) {
  if (!cursor) return {};
  return {
    OR: [{ createdAt: { lt: cursor.createdAt } }, { createdAt: cursor.createdAt, id: { lt: cursor.id } }],
  };
}

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/** Cuts a `limit + 1` fetch into a page and the cursor of the next one. */
export function toPage<R extends { createdAt: Date; id: string }, T>(rows: R[], limit: number, map: (row: R) => T): Page<T> {
  const more = rows.length > limit;
  const kept = more ? rows.slice(0, limit) : rows;
  const last = kept.at(-1);
  return { items: kept.map(map), nextCursor: more && last ? encodeCursor({ createdAt: last.createdAt, id: last.id }) : null };
}
