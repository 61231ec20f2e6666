import { describe, expect, it } from 'vitest';
import { REFUSED_TARGET, screenRequestTarget } from '../../scripts/request-target.mjs';
import { findLoneSurrogate } from '../../src/lib/server/guards/input-text';

describe('screenRequestTarget (the raw request target, before SvelteKit resolves it)', () => {
  it.each(['/api/vaults/%2e%2e?privateKey=x', '/api/%2E%2E', '/a/./b', '/a/../b', '/api/.%2e/x', '/api\\..\\x', '/x/%2e'])(
    'refuses %s and drops its query',
    (url) => {
      const req: { url: string; [REFUSED_TARGET]?: unknown } = { url };
      expect(screenRequestTarget(req)).toBe('dot_segment');
      expect(req.url).toBe('/api');
      expect(req[REFUSED_TARGET]).toBe('dot_segment');
    },
  );

  it.each(['/api/vaults/svc-vault?x=../..', '/api/share-card/hrcpt_1.svg', '/...', '/a..b/c', '/strategist'])('leaves %s alone', (url) => {
    const req: { url: string; [REFUSED_TARGET]?: unknown } = { url };
    expect(screenRequestTarget(req)).toBeUndefined();
    expect(req.url).toBe(url);
  });
});

describe('findLoneSurrogate', () => {
  it('names the first string or key holding a lone surrogate, and passes well-formed text', () => {
    expect(findLoneSurrogate({ a: ['ok', { b: 'x\ud800' }] })).toBe('a.1.b');
    expect(findLoneSurrogate({ ['k\udc00']: 1 })).toBe('(key)');
    expect(findLoneSurrogate({ emoji: '💥 \ud83d\udca5', text: 'plain' })).toBeUndefined();
    expect(findLoneSurrogate('\udbff')).toBe('(root)');
  });
});
