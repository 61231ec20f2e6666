/**
 * What a procedure declares about itself (its family, error codes, MCP tool, answers kept in
 * memory): the types the route table, the error map and the service middleware all read. Kept
 * apart from the tRPC instance (init.ts) so that those three import it and not each other.
 */
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ErrorIssue } from '../errors';
import type { McpToolName } from '../registry/agents';

/**
 * Route families of interface 4.1. `tools`, `strategist`, `autonomy`, `vaults` and `x402`
 * payloads carry the two invariants (interface 1), and so does every MCP tool's, whatever its
 * family (`carriesInvariants`).
 */
export type RouteFamily = 'system' | 'registry' | 'tools' | 'strategist' | 'stocks' | 'autonomy' | 'vaults' | 'x402' | 'auth' | 'me';

export const STAMPED_FAMILIES: ReadonlySet<RouteFamily> = new Set(['tools', 'strategist', 'autonomy', 'vaults', 'x402']);

export type SvcMeta = OpenApiMeta<{
  /** Required on every procedure; the route table refuses one without it. */
  family?: RouteFamily;
  /**
   * The top-level error code when the input fails validation. A function receives the
   * dotted path of the first failing field (e.g. tools answer `COIL_SHAPE` for `coil.*`)
   * and that field's issue.
   */
  inputErrorCode?: string | ((firstPath: string, firstIssue?: ErrorIssue) => string);
  /**
   * The MCP tool of interface 4.9 this procedure backs. Each of the 34 tools names exactly one
   * procedure that has a REST route; the MCP server is the walk over these (trpc/mcp-tools.ts).
   */
  tool?: McpToolName;
  /**
   * Fields of the answer that hold the caller's stored documents (dotted, `*` for any index
   * or key, e.g. `items.*.manifest`): the caller's own words, outside the execution-claim
   * scan (see guards/finish-answer.ts).
   */
  callerPaths?: string[];
  /**
   * The procedure finishes its answer itself before money moves (the paid x402 call): the
   * middleware then only scrubs secrets and never refuses a paid-for answer.
   */
  answerFinishedBeforeSettlement?: boolean;
  /**
   * The answer depends on nothing but the service's configuration: not on the input, the
   * caller, the clock or stored data (the registry, the health flags). The REST front answers a
   * request without a query string from the finished text of the first such answer
   * (http/dispatch.ts), as it does the OpenAPI document; tests/inproc/static-answers.test.ts holds
   * every procedure that says so to it.
   */
  staticAnswer?: true;
  /**
   * The paid call of x402: a request that carries none of these payment headers is refused
   * with the 402 challenge of the service its path names, which depends on nothing else but
   * the configuration (no clock, no body field, no stored row). The REST front answers such a
   * request from the finished text of the first such challenge for that service, as long as
   * nothing else of the request could change the answer: no query string, no `nowIso`, only
   * well-formed text (http/dispatch.ts). tests/api/x402.test.ts holds it to the procedure's own
   * answer.
   */
  unpaidChallenge?: { paymentHeaders: readonly string[] };
}>;
