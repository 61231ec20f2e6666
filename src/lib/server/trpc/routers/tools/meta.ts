/** What the operations of the tools family share: their meta, the Coil field, the Coil-tool answer. */
import { coilSchema, type Coil } from '../../../coil/manifest';
import type { ReceiptKind } from '../../../receipts/receipt';
import type { McpToolName } from '../../../registry/agents';
import type { RequestContext } from '../../context';
import { rest } from '../../init';
import { issueReceipt, withForkParent } from '../../procedure-kit/coil-store';
import { toolInputErrorCode } from '../../procedure-kit/input-error-codes';
import { toolAnswer } from '../../procedure-kit/tool-answer';

/** The meta of a tools route; `tool` names the MCP tool (interface 4.9) it backs, if any. */
export const toolsMeta = (method: 'GET' | 'POST', path: `/${string}`, summary: string, tool?: McpToolName) => ({
  family: 'tools' as const,
  ...(tool ? { tool } : {}),
  inputErrorCode: toolInputErrorCode,
  openapi: rest(method, path, summary, { tags: ['tools'] }),
});

export const coilField = coilSchema.describe('A Coil; a value that is not a Coil at all is 400 COIL_SHAPE');

/**
 * The handler of a tool that works on one Coil: its fork's parent resolved, `work` done on it
 * (a refusal there stores nothing), then its receipt of `kind` issued and saved; the answer
 * holds the work's fields, the receipt and what the log did with it
 * (`receiptLog`: an anonymous call's receipt is stored, not logged).
 */
export function coilTool<N extends string, I extends { coil: Coil }, F extends object>(
  tool: N,
  kind: ReceiptKind,
  work: (coil: Coil, input: I) => F,
) {
  return async ({ ctx, input }: { ctx: RequestContext; input: I }) => {
    const coil = await withForkParent(ctx, input.coil);
    const fields = work(coil, input);
    const { receipt, receiptLog } = await issueReceipt(ctx, coil, kind);
    return toolAnswer(tool, ctx, { ...fields, receipt, receiptLog });
  };
}
