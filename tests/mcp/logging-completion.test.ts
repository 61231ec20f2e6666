/**
 * MCP `logging` and `completion/complete` (issue 36 item 4) through the SDK's own `Client`:
 * - logging/setLevel answers `{}`; over stdio every tool call sends one `notifications/message`
 *   (logger `svc`: the tool, the status its REST route would answer, the error code, the
 *   duration; info for an answer, warning for a refusal), filtered by the level set, and never
 *   carrying what the caller sent;
 * - completion/complete completes the last word of `thesis_to_coil`'s `thesis` from the words
 *   the strategist reads as themes; an unknown prompt or argument completes to nothing.
 * Over Streamable HTTP (stateless, JSON answers) both methods answer; see docs/mcp-tools.md
 * for why a tool's log messages there have no place to go.
 */
import { LoggingMessageNotificationSchema, type LoggingMessageNotification } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectHttp, connectStdio, type McpTestClient } from '../support/mcp';
import { startServer, type TestServer } from '../support/server';
import { NOW_ISO, TOOL_INPUTS } from '../support/tool-vectors';

let server: TestServer;
const clients: Record<'stdio' | 'http', McpTestClient> = {} as never;
const received: LoggingMessageNotification['params'][] = [];

beforeAll(async () => {
  server = await startServer({ allowPostgres: false, env: { STRATEGIST_PROVIDER: 'mock' } });
  [clients.stdio, clients.http] = await Promise.all([connectStdio(server), connectHttp(server)]);
  clients.stdio.client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
    received.push(n.params);
  });
});
afterAll(async () => {
  await Promise.all(Object.values(clients).map((c) => c?.close()));
  await server?.stop();
});

/** The log messages that arrive for what `act` does (the notification precedes the call's response on stdio). */
async function messagesOf(act: () => Promise<unknown>): Promise<LoggingMessageNotification['params'][]> {
  received.length = 0;
  await act();
  await clients.stdio.client.ping();
  return [...received];
}

describe('logging', () => {
  it('declares logging and completions, and answers logging/setLevel with {} on both transports', async () => {
    for (const client of Object.values(clients)) {
      expect(client.client.getServerCapabilities()).toMatchObject({ logging: {}, completions: {} });
      expect(await client.client.setLoggingLevel('info')).toEqual({});
    }
  });

  it('sends one message per tool call: info with the tool, status and duration, never the arguments', async () => {
    await clients.stdio.client.setLoggingLevel('debug');
    const thesis = 'A distinctive thesis about semiconductor foundries 7f3a9';
    const messages = await messagesOf(() => clients.stdio.call('svc_generate_coil', { prompt: thesis, nowIso: NOW_ISO }));
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({
      level: 'info',
      logger: 'svc',
      data: { event: 'tool call', tool: 'svc_generate_coil', status: 200, durationMs: expect.any(Number), requestId: expect.any(String) },
    });
    expect(Object.keys(messages[0]!.data as object).sort()).toEqual(['durationMs', 'event', 'requestId', 'status', 'tool']);
    expect(JSON.stringify(messages)).not.toContain('7f3a9');
  });

  it('a refusal is a warning with its code; a credential in the arguments is named by neither', async () => {
    const secret = 'svc-logging-credential-e91';
    const messages = await messagesOf(() =>
      clients.stdio.call('svc_explain_oracle_policy', { ...TOOL_INPUTS.svc_explain_oracle_policy({} as never), apiKey: secret }),
    );
    expect(messages).toEqual([
      {
        level: 'warning',
        logger: 'svc',
        data: expect.objectContaining({ tool: 'svc_explain_oracle_policy', status: 400, code: 'CREDENTIAL_FIELD_REJECTED' }),
      },
    ]);
    expect(JSON.stringify(messages)).not.toContain(secret);
    const malformed = await messagesOf(() => clients.stdio.call('svc_explain_oracle_policy', { nowIso: 'yesterday' }));
    expect(malformed).toEqual([
      { level: 'warning', logger: 'svc', data: expect.objectContaining({ status: 400, code: expect.any(String) }) },
    ]);
  });

  it('filters by the level set: at error, an answered call and a refusal send nothing; at warning, only the refusal', async () => {
    await clients.stdio.client.setLoggingLevel('error');
    const ok = TOOL_INPUTS.svc_explain_oracle_policy({} as never);
    expect(await messagesOf(() => clients.stdio.call('svc_explain_oracle_policy', ok))).toEqual([]);
    expect(await messagesOf(() => clients.stdio.call('svc_explain_oracle_policy', { nowIso: 'yesterday' }))).toEqual([]);
    await clients.stdio.client.setLoggingLevel('warning');
    expect(await messagesOf(() => clients.stdio.call('svc_explain_oracle_policy', ok))).toEqual([]);
    expect(await messagesOf(() => clients.stdio.call('svc_explain_oracle_policy', { nowIso: 'yesterday' }))).toHaveLength(1);
    await clients.stdio.client.setLoggingLevel('info');
  });
});

describe('completion/complete', () => {
  const thesis = (value: string) => ({ ref: { type: 'ref/prompt' as const, name: 'thesis_to_coil' }, argument: { name: 'thesis', value } });

  it("completes the thesis's last word from the strategist's theme words, on both transports", async () => {
    for (const client of Object.values(clients)) {
      const { completion } = await client.client.complete(thesis('AI chips and semicond'));
      expect(completion.values).toContain('AI chips and semiconductors');
      expect(completion.values.every((v) => v.startsWith('AI chips and semicond'))).toBe(true);
      expect(completion.values.length).toBeLessThanOrEqual(100);
      expect(completion.total).toBe(completion.values.length);
      expect(completion.hasMore).toBe(false);
    }
  });

  it('completes to nothing after a space, for another argument, an unknown prompt or a resource template', async () => {
    const none = { values: [], total: 0, hasMore: false };
    for (const client of Object.values(clients)) {
      expect((await client.client.complete(thesis('AI chips '))).completion).toEqual(none);
      expect((await client.client.complete(thesis('zzqx'))).completion).toEqual({ ...none });
      expect(
        (await client.client.complete({ ref: { type: 'ref/prompt', name: 'thesis_to_coil' }, argument: { name: 'other', value: 'se' } }))
          .completion,
      ).toEqual(none);
      expect(
        (
          await client.client.complete({
            ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' },
            argument: { name: 'arg1', value: 'test' },
          })
        ).completion,
      ).toEqual(none);
      expect(
        (await client.client.complete({ ref: { type: 'ref/resource', uri: 'svc://registry/{id}' }, argument: { name: 'id', value: 'a' } }))
          .completion,
      ).toEqual(none);
    }
  });
});
