import { describe, expect, it } from 'vitest';
import { hasDotSegment } from '../../src/lib/server/http/request-target';
import { findMalformedInput } from '../../src/lib/server/guards/input-text';

describe('hasDotSegment (the raw request target, before anything resolves it)', () => {
  it.each(['/api/vaults/%2e%2e?privateKey=x', '/api/%2E%2E', '/a/./b', '/a/../b', '/api/.%2e/x', '/api\\..\\x', '/x/%2e', '..'])(
    'finds one in %s',
    (target) => expect(hasDotSegment(target)).toBe(true),
  );

  it.each(['/api/vaults/svc-vault?x=../..', '/api/share-card/hrcpt_1.svg', '/...', '/a..b/c', '/strategist', '/a/%2e%2e%2e', '/'])(
    'finds none in %s',
    (target) => expect(hasDotSegment(target)).toBe(false),
  );
});

describe('findMalformedInput', () => {
  it('names the first string or key holding a lone surrogate, and passes well-formed text', () => {
    const surrogate = (path: string) => ({ path, problem: 'lone_surrogate' });
    expect(findMalformedInput({ a: ['ok', { b: 'x\ud800' }] })).toEqual(surrogate('a.1.b'));
    expect(findMalformedInput({ ['k\udc00']: 1 })).toEqual(surrogate('(key)'));
    expect(findMalformedInput({ emoji: '💥 \ud83d\udca5', text: 'plain' })).toBeUndefined();
    expect(findMalformedInput('\udbff')).toEqual(surrogate('(root)'));
  });

  it('names the first number beyond the range of a double (JSON.parse reads 1e400 as Infinity), and passes finite ones', () => {
    const parsed = JSON.parse('{"receipt":{},"subject":-1e400,"list":[1,2]}');
    expect(findMalformedInput(parsed)).toEqual({ path: 'subject', problem: 'non_finite_number' });
    expect(findMalformedInput(JSON.parse('{"a":[0,{"b":1e309}]}'))).toEqual({ path: 'a.1.b', problem: 'non_finite_number' });
    expect(findMalformedInput(JSON.parse('{"big":1.7976931348623157e308,"tiny":1e-400,"neg":-0}'))).toBeUndefined();
    expect(findMalformedInput(Number.NaN)).toEqual({ path: '(root)', problem: 'non_finite_number' });
  });
});
