import { describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES, readJsonObjectBody } from '../../src/lib/server/http/body';
import { bodySourceOf } from '../../src/lib/server/http/fetch-front';

function streamOf(bytes: number, chunk = 16 * 1024): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent >= bytes) return controller.close();
      const n = Math.min(chunk, bytes - sent);
      controller.enqueue(new Uint8Array(n).fill(0x20));
      sent += n;
    },
  });
}

const post = (body: BodyInit | null, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
  bodySourceOf(new Request('http://x/api', { method: 'POST', body, headers, duplex: 'half' } as RequestInit));

describe('readJsonObjectBody', () => {
  it('parses an object', async () => {
    expect((await readJsonObjectBody(post('{"a":1}'))).value).toEqual({ a: 1 });
  });

  it('treats an empty body as {}', async () => {
    expect((await readJsonObjectBody(post(null, {}))).value).toEqual({});
  });

  it.each([
    ['{', 'BODY_MALFORMED_JSON'],
    ['[1,2]', 'BODY_NOT_OBJECT'],
    ['"text"', 'BODY_NOT_OBJECT'],
    ['null', 'BODY_NOT_OBJECT'],
  ])('rejects %s with %s', async (body, code) => {
    await expect(readJsonObjectBody(post(body))).rejects.toMatchObject({ code });
  });

  it('rejects a non-JSON content type', async () => {
    await expect(readJsonObjectBody(post('a=1', { 'content-type': 'application/x-www-form-urlencoded' }))).rejects.toMatchObject({
      code: 'BODY_CONTENT_TYPE',
    });
  });

  it('cuts a streamed body without content-length at the cap', async () => {
    await expect(readJsonObjectBody(post(streamOf(MAX_BODY_BYTES + 1)))).rejects.toMatchObject({ code: 'BODY_TOO_LARGE' });
  });

  it('does not trust a false, small content-length', async () => {
    const req = post(streamOf(MAX_BODY_BYTES * 2), { 'content-type': 'application/json', 'content-length': '10' });
    await expect(readJsonObjectBody(req)).rejects.toMatchObject({ code: 'BODY_TOO_LARGE' });
  });

  it('accepts a body of exactly the cap', async () => {
    const text = '{"a":"' + 'x'.repeat(MAX_BODY_BYTES - 8) + '"}';
    expect(Buffer.byteLength(text)).toBe(MAX_BODY_BYTES);
    await expect(readJsonObjectBody(post(text))).resolves.toBeDefined();
  });

  it('inspects every non-empty body before the content type or the JSON decides: the parsed value, else the text', async () => {
    const seen: unknown[] = [];
    const inspect = (v: unknown) => seen.push(v);
    await expect(readJsonObjectBody(post('{"privateKey":"x"}', {}), { inspect })).rejects.toMatchObject({ code: 'BODY_CONTENT_TYPE' });
    await expect(readJsonObjectBody(post('not json', { 'content-type': 'text/plain' }), { inspect })).rejects.toMatchObject({
      code: 'BODY_CONTENT_TYPE',
    });
    expect(seen).toEqual([{ privateKey: 'x' }, 'not json']);
    const refusing = () => {
      throw new Error('refused by the guard');
    };
    await expect(readJsonObjectBody(post('{"a":1}'), { inspect: refusing })).rejects.toThrow('refused by the guard');
  });

  it("never passes the parser's message on: it quotes the body", async () => {
    const error = await readJsonObjectBody(post('{"k": secret-fragment"}')).catch((e) => e);
    expect(error.code).toBe('BODY_MALFORMED_JSON');
    expect(JSON.stringify({ m: error.message, i: error.issues })).not.toContain('secret-fragment');
  });
});
