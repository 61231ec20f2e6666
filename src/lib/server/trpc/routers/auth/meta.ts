/**
 * What the operations of the auth family share. Every security decision of the family (nonce
 * and message expiry, session expiry) uses the server's clock, `ctx.serverTime`, never
 * `ctx.answerTime`: `nowIso` pins the timestamps of an answer, and must never let a caller
 * move the clock of a check.
 */
import { z } from 'zod';
import type { HeaderWriter } from '../../context';
import { nowIsoField, rest } from '../../init';

export const authMeta = (method: 'GET' | 'POST', path: `/${string}`, summary: string) => ({
  family: 'auth' as const,
  openapi: rest(method, path, summary),
});

export const noInput = z.object({ nowIso: nowIsoField }).optional();

/** Sign-in answers are never cached: each carries a nonce, a session or its end. */
export function noStore(headers: HeaderWriter): void {
  headers.set('cache-control', 'no-store');
}
