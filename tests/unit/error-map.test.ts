/**
 * Every error code the code can throw has an HTTP status in the one table of
 * trpc/error-map.ts. The codes are read from the source the way they reach an error: a literal
 * given to `new SvcError(...)` or to a helper whose first parameter is the code and which
 * builds the error from it, a route's `inputErrorCode`, the literals an input-error-code
 * function returns, and the exported code constants (`*_ERROR`, `*_CODES`).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { STATUS_BY_CODE, statusForCode } from '../../src/lib/server/trpc/error-map';

const ROOT = join(import.meta.dirname, '..', '..');
const CODE = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*$/;

function* sources(dir: string): Generator<string> {
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) yield* sources(path);
    else if (/\.(ts|svelte)$/.test(entry) && !entry.endsWith('.d.ts')) yield path;
  }
}

const files = [...sources(join(ROOT, 'src/lib/server')), ...sources(join(ROOT, 'src/routes')), join(ROOT, 'src/hooks.server.ts')].map(
  (path) => ({
    path: path.slice(ROOT.length + 1),
    text: readFileSync(path, 'utf8'),
  }),
);

const literals = (text: string, pattern: RegExp) => [...text.matchAll(pattern)].map((m) => m[1]!).filter((c) => CODE.test(c));

/** Functions taking the code first and building the error from it, e.g. `challenge(code, ...)`. */
function codeTakingHelpers(): string[] {
  const names = new Set<string>(['symbolSpaceAware']);
  for (const { text } of files) {
    if (!/new SvcError\(\s*code\b/.test(text)) continue;
    for (const m of text.matchAll(/(?:function\s+(\w+)\s*\(\s*code\b|(?:const|let)\s+(\w+)\s*=\s*\(\s*code\b)/g))
      names.add((m[1] ?? m[2])!);
  }
  return [...names];
}

function thrownCodes(): Map<string, string> {
  const found = new Map<string, string>();
  const add = (codes: string[], where: string) => codes.forEach((c) => found.has(c) || found.set(c, where));
  const helpers = codeTakingHelpers();
  const helperCall = new RegExp(`\\b(?:${helpers.join('|')})\\(\\s*'([A-Z0-9_]+)'`, 'g');
  for (const { path, text } of files) {
    add(literals(text, /new SvcError\(\s*'([A-Z0-9_]+)'/g), path);
    add(literals(text, helperCall), path);
    add(literals(text, /inputErrorCode:\s*'([A-Z0-9_]+)'/g), path);
    // The literal answers of an input-error-code function (`toolInputErrorCode`, `vaultInputErrorCode`, ...).
    for (const fn of text.matchAll(/function\s+\w*ErrorCode\w*\s*\([^)]*\)[^{]*\{([\s\S]*?)\n\}/g))
      add(literals(fn[1]!, /(?:return|\?|:)\s*'([A-Z0-9_]+)'/g), path);
    // Exported code constants: an object or array of codes named *_ERROR(S) or *_CODES (issue-code tables excepted).
    for (const decl of text.matchAll(/export const (\w+_(?:ERRORS?|CODES))\b[^=]*=\s*([[{][\s\S]*?[\]}])(?: as const)?;/g)) {
      if (/ISSUE|VALIDATION|AUDIT/.test(decl[1]!)) continue;
      add(literals(decl[2]!, /'([A-Z0-9_]+)'/g), `${path} (${decl[1]})`);
    }
  }
  return found;
}

describe('error statuses', () => {
  it('the scan finds the codes it is meant to find (so an empty scan cannot pass)', () => {
    const codes = thrownCodes();
    for (const code of [
      'COIL_INVALID',
      'X402_PAYMENT_REQUIRED',
      'SIWE_NONCE_REUSED',
      'FORK_PARENT_NOT_FOUND',
      'PARTNER_TIMEOUT',
      'VAULT_UNKNOWN',
      'COIL_SHAPE',
    ]) {
      expect(codes.has(code), code).toBe(true);
    }
    expect(codes.size).toBeGreaterThan(80);
  });

  it('every code the code can throw has an HTTP status', () => {
    const unmapped = [...thrownCodes()].filter(([code]) => STATUS_BY_CODE[code] === undefined).map(([code, where]) => `${code} (${where})`);
    expect(unmapped).toEqual([]);
  });

  it('every status in the table is one the API answers with', () => {
    for (const [code, status] of Object.entries(STATUS_BY_CODE)) {
      expect([202, 400, 401, 402, 403, 404, 405, 409, 413, 422, 429, 500, 502, 503], code).toContain(status);
    }
    expect(statusForCode('NO_SUCH_CODE_ANYWHERE')).toBe(500);
  });

  it('no module registers statuses of its own: the table is the only place', () => {
    const registering = files.filter(({ text }) => /registerErrorStatuses|STATUS_BY_CODE\[[^\]]+\]\s*=/.test(text)).map((f) => f.path);
    expect(registering).toEqual([]);
  });
});
