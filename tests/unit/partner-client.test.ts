/** The partner HTTP client against the fake partner server: polling, backoff, timeout, failures. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SvcError } from '../../src/lib/server/errors';
import { askPartner, type PartnerClientOptions } from '../../src/lib/server/strategist/partner';
import { startFakePartner, type FakePartner, type PartnerJobStatus } from '../support/fake-partner';

const KEY = 'unit-test-partner-key';
let partner: FakePartner;
const scripts = new Map<string, { statuses?: PartnerJobStatus[]; response?: string }>();

beforeAll(async () => {
  partner = await startFakePartner({
    apiKey: KEY,
    script: (prompt) => scripts.get(prompt) ?? { statuses: ['processing', 'completed'], response: 'answer' },
  });
});
afterAll(async () => {
  await partner.stop();
});

const options = (over: Partial<PartnerClientOptions> = {}): PartnerClientOptions => ({
  apiUrl: partner.url,
  apiKey: KEY,
  timeoutMs: 3000,
  firstPollDelayMs: 10,
  maxPollDelayMs: 40,
  ...over,
});

async function code(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'OK';
  } catch (error) {
    if (error instanceof SvcError) return error.code;
    throw error;
  }
}

describe('partner client', () => {
  it('submits the prompt with X-API-Key, polls until completed and returns the answer', async () => {
    scripts.set('p1', { statuses: ['pending', 'processing', 'processing', 'completed'], response: '{"ok":1}' });
    const before = partner.requests.length;
    expect(await askPartner('p1', options())).toBe('{"ok":1}');
    const mine = partner.requests.slice(before);
    expect(mine[0]).toMatchObject({ method: 'POST', path: '/agent/prompt' });
    expect(mine[0]!.headers['x-api-key']).toBe(KEY);
    expect(JSON.parse(mine[0]!.body)).toEqual({ prompt: 'p1' });
    expect(mine.filter((r) => r.method === 'GET')).toHaveLength(4);
  });

  it('is not configured without a URL or a key', async () => {
    expect(await code(askPartner('x', options({ apiUrl: undefined })))).toBe('PARTNER_NOT_CONFIGURED');
    expect(await code(askPartner('x', options({ apiKey: undefined })))).toBe('PARTNER_NOT_CONFIGURED');
  });

  it('answers PARTNER_HTTP_ERROR for a 5xx submission (never retried) and a rejected key', async () => {
    partner.failNextSubmit({ kind: 'status', status: 503 });
    const before = partner.submissions().length;
    expect(await code(askPartner('x', options()))).toBe('PARTNER_HTTP_ERROR');
    expect(partner.submissions().length).toBe(before + 1);
    expect(await code(askPartner('x', options({ apiKey: 'wrong' })))).toBe('PARTNER_HTTP_ERROR');
  });

  it('retries one transient 5xx job read, then fails on the second', async () => {
    partner.failNextJobRead({ kind: 'status', status: 502 });
    expect(await askPartner('x', options())).toBe('answer');
    partner.failNextJobRead({ kind: 'status', status: 500 }, 2);
    expect(await code(askPartner('x', options()))).toBe('PARTNER_HTTP_ERROR');
  });

  it('answers PARTNER_INVALID_OUTPUT for malformed JSON', async () => {
    partner.failNextSubmit({ kind: 'bad_json' });
    expect(await code(askPartner('x', options()))).toBe('PARTNER_INVALID_OUTPUT');
    partner.failNextJobRead({ kind: 'bad_json' });
    expect(await code(askPartner('x', options()))).toBe('PARTNER_INVALID_OUTPUT');
  });

  it('answers PARTNER_TIMEOUT when the partner hangs or never finishes within the overall budget', async () => {
    partner.failNextSubmit({ kind: 'hang' });
    expect(await code(askPartner('x', options({ timeoutMs: 300 })))).toBe('PARTNER_TIMEOUT');
    scripts.set('slow', { statuses: ['processing'] });
    expect(await code(askPartner('slow', options({ timeoutMs: 300 })))).toBe('PARTNER_TIMEOUT');
  });

  it('answers PARTNER_HTTP_ERROR for a failed or cancelled job and for a dropped connection', async () => {
    scripts.set('failed', { statuses: ['processing', 'failed'] });
    scripts.set('cancelled', { statuses: ['cancelled'] });
    expect(await code(askPartner('failed', options()))).toBe('PARTNER_HTTP_ERROR');
    expect(await code(askPartner('cancelled', options()))).toBe('PARTNER_HTTP_ERROR');
    partner.failNextSubmit({ kind: 'reset' });
    expect(await code(askPartner('x', options()))).toBe('PARTNER_HTTP_ERROR');
  });
});
