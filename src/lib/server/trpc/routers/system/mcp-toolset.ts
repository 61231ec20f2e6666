/** GET /api/mcp/toolset: the MCP toolset version, the hash of the tools/list entries the MCP server serves. */
import { z } from 'zod';
import { publicProcedure, rest } from '../../init';
import { MCP_SERVER_NAME, MCP_SERVER_VERSION, mcpToolset } from '../../mcp-toolset';
import { clockOnlyInput } from './meta';

const toolsetOut = z.object({
  server: z.object({ name: z.string(), version: z.string() }),
  toolsetHash: z.string().describe('64 lowercase hex digits'),
  hashAlgorithm: z.literal('sha256-jcs'),
  toolCount: z.number().int(),
  tools: z.array(
    z.object({
      name: z.string(),
      title: z.string(),
      annotations: z.object({
        readOnlyHint: z.boolean(),
        destructiveHint: z.boolean(),
        idempotentHint: z.boolean(),
        openWorldHint: z.boolean(),
      }),
    }),
  ),
});

export const mcpToolsetProcedure = publicProcedure
  .meta({
    family: 'system',
    staticAnswer: true,
    openapi: rest('GET', '/mcp/toolset', 'The MCP toolset version: the hash of the tools/list entries the MCP server serves'),
  })
  .input(clockOnlyInput)
  .output(toolsetOut)
  .query(() => {
    const { tools, hash } = mcpToolset();
    return {
      server: { name: MCP_SERVER_NAME, version: MCP_SERVER_VERSION },
      toolsetHash: hash,
      hashAlgorithm: 'sha256-jcs' as const,
      toolCount: tools.length,
      tools: tools.map(({ definition }) => {
        const { readOnlyHint, destructiveHint, idempotentHint, openWorldHint } = definition.annotations!;
        return {
          name: definition.name,
          title: definition.title!,
          annotations: {
            readOnlyHint: readOnlyHint!,
            destructiveHint: destructiveHint!,
            idempotentHint: idempotentHint!,
            openWorldHint: openWorldHint!,
          },
        };
      }),
    };
  });
