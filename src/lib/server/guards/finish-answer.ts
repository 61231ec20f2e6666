/**
 * Finishing an answer: the one function that decides whether a value the service is about
 * to send may leave, applied to the value itself before it is serialised (by the tRPC
 * middleware for every procedure, and by the paid x402 flow before it settles).
 *
 *   1. Execution-claim guard (interface 1, 7): a string of the service's own that reads as an
 *      unproven execution claim refuses the whole answer with `OUTPUT_GUARD`.
 *   2. Secret scrub: a configured secret value anywhere in the answer (keys included) is
 *      replaced by a marker, and reported so the caller can log the bug.
 *
 * Invariant stamping is the output schema's job (`stampedOutput`); a caller that finishes
 * an answer outside a procedure passes the schema as `schema`.
 *
 * The caller's own words are not the service's statement, so they are outside the scan:
 * every string (or key) the caller sent with this very request, whether the answer repeats it
 * whole or quotes it inside a sentence of its own (a text is judged with the caller's words
 * taken out), and every string under a path the procedure declares as the caller's stored
 * document (`callerPaths`, e.g. a saved Coil read back from `/api/me`). The README's
 * output-guard rule lists every echoed field and its treatment.
 */
import { SvcError } from '../errors';
import { findExecutionClaim } from './output-guard';
import { containsSecret, scrubSecrets } from './secret-scrub';

export interface FinishOptions {
  /** Configured secret values (never empty strings). */
  secrets: readonly string[];
  /**
   * The strings of the caller's request (values and keys), computed only when a claim is
   * found, so a clean answer never pays for it.
   */
  callerStrings?: () => ReadonlySet<string>;
  /**
   * Dotted paths of fields that hold the caller's stored documents; `*` stands for any array
   * index or object key (`items.*.manifest`). Everything below such a field is outside the
   * execution-claim scan (never outside the secret scrub).
   */
  callerPaths?: readonly string[];
  /** Parses (and so stamps) the answer before it is checked. */
  schema?: { parse: (value: unknown) => unknown };
  /**
   * false: scrub only, never refuse. For an answer whose every string already passed the
   * guard before money moved (the paid x402 call): after settlement the buyer gets it.
   */
  guardClaims?: boolean;
}

export interface FinishReport {
  /** A secret was found and replaced: a bug of the service, to be logged. */
  secretScrubbed: boolean;
}

/** The answer a blocked execution claim turns into (500). */
export function outputGuardError(): SvcError {
  return new SvcError('OUTPUT_GUARD', 'The response was blocked: it read as a claim that an execution happened, without on-chain proof', {
    issues: [{ code: 'EXECUTION_CLAIM', message: 'no order is placed and nothing is executed by this service' }],
  });
}

/** Thrown by `finishAnswer`: carries the path of the offending string (never its text) for the log. */
export class OutputGuardBlocked extends SvcError {
  constructor(readonly blockedPath: string) {
    const base = outputGuardError();
    super(base.code, base.message, { issues: base.issues });
  }
}

type Segment = string | number;

/** A path as a chain of parents, so a deep answer costs no copying per node. */
interface PathNode {
  parent: PathNode | null;
  segment: Segment;
  depth: number;
}

/** A node to visit, which is also its own path. */
interface Visit extends PathNode {
  node: unknown;
  /** Under a declared caller path: outside the execution-claim scan. */
  exempt: boolean;
}

function compilePaths(paths: readonly string[] | undefined): string[][] {
  return (paths ?? []).map((p) => p.split('.'));
}

function segmentsOf(path: PathNode | null): Segment[] {
  const out: Segment[] = [];
  for (let p = path; p; p = p.parent) out.push(p.segment);
  return out.reverse();
}

/** Whether the node at `path` is exactly a declared caller path (its subtree inherits the exemption). */
function isCallerPath(path: PathNode, patterns: readonly string[][]): boolean {
  for (const pattern of patterns) {
    if (pattern.length !== path.depth) continue;
    let p: PathNode | null = path;
    let ok = true;
    for (let i = pattern.length - 1; i >= 0 && p; i--, p = p.parent) {
      if (pattern[i] !== '*' && pattern[i] !== String(p.segment)) {
        ok = false;
        break;
      }
    }
    if (ok) return true;
  }
  return false;
}

function renderPath(path: PathNode | null): string {
  return segmentsOf(path)
    .map((s, i) => (typeof s === 'number' ? `[${s}]` : i === 0 ? s : `.${s}`))
    .join('');
}

/**
 * Checks and finishes an answer. Returns the answer (the same value when nothing had to be
 * scrubbed, else a scrubbed copy) and what was done; throws `OutputGuardBlocked` (code
 * `OUTPUT_GUARD`) when a string of the service's own reads as an execution claim.
 */
export function finishAnswer<T>(answer: T, options: FinishOptions): { answer: T; report: FinishReport } {
  const value = (options.schema ? options.schema.parse(answer) : answer) as T;
  const patterns = compilePaths(options.callerPaths);
  let callerStrings: ReadonlySet<string> | undefined;
  let secretFound = false;
  const hasSecrets = options.secrets.length > 0;
  const guardClaims = options.guardClaims !== false;

  // Iterative walk: an answer may carry a deep caller document, and a recursion must not be
  // what knocks the server over. Each visit is also its node's path (depth 0 is the root).
  const stack: Visit[] = [{ node: value, parent: null, segment: '', depth: 0, exempt: false }];
  while (stack.length > 0) {
    const visit = stack.pop()!;
    const { node, exempt } = visit;
    const path = visit.depth === 0 ? null : visit;
    if (typeof node === 'string') {
      if (hasSecrets && !secretFound && containsSecret(node, options.secrets)) secretFound = true;
      if (guardClaims && !exempt && findExecutionClaim(node)) {
        callerStrings ??= options.callerStrings?.() ?? new Set<string>();
        if (!callerStrings.has(node) && findExecutionClaim(withoutCallerWords(node, callerStrings)))
          throw new OutputGuardBlocked(renderPath(path));
      }
    } else if (Array.isArray(node)) {
      for (let i = node.length - 1; i >= 0; i--) {
        const child: Visit = { node: node[i], parent: path, segment: i, depth: visit.depth + 1, exempt };
        if (!exempt && patterns.length > 0) child.exempt = isCallerPath(child, patterns);
        stack.push(child);
      }
    } else if (node !== null && typeof node === 'object') {
      const record = node as Record<string, unknown>;
      for (const key of Object.keys(record)) {
        if (hasSecrets && !secretFound && containsSecret(key, options.secrets)) secretFound = true;
        const child: Visit = { node: record[key], parent: path, segment: key, depth: visit.depth + 1, exempt };
        if (!exempt && patterns.length > 0) child.exempt = isCallerPath(child, patterns);
        stack.push(child);
      }
    }
  }
  if (!secretFound) return { answer: value, report: { secretScrubbed: false } };
  // Rare by construction (a bug put a secret in an answer): scrub the serialised form,
  // which also covers keys and JSON-escaped forms.
  const scrubbed = JSON.parse(scrubSecrets(JSON.stringify(value), options.secrets)) as T;
  return { answer: scrubbed, report: { secretScrubbed: true } };
}

/** Caller strings shorter than this are not taken out of a text (they would cut words apart). */
const MIN_CALLER_WORDS = 3;

/**
 * The text with every string of the caller's request taken out (case-insensitive: a service
 * may upper-case a ticker it quotes). A text that reads as a claim only because of the
 * caller's words is not a statement of the service.
 */
function withoutCallerWords(text: string, callerStrings: ReadonlySet<string>): string {
  const lower = text.toLowerCase();
  const inside = [...callerStrings]
    .filter((c) => c.length >= MIN_CALLER_WORDS && lower.includes(c.toLowerCase()))
    .sort((a, b) => b.length - a.length);
  let out = text;
  for (const words of inside) {
    const escaped = words.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    out = out.replace(new RegExp(escaped, 'gi'), ' … ');
  }
  return out;
}

/**
 * Every string and key of a caller's request, collected iteratively (a request may nest
 * deeply). These are the caller's own words when an answer repeats one verbatim.
 */
export function collectCallerStrings(...inputs: unknown[]): Set<string> {
  const out = new Set<string>();
  const stack: unknown[] = [...inputs];
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node === 'string') out.add(node);
    else if (Array.isArray(node)) stack.push(...node);
    else if (node !== null && typeof node === 'object') {
      for (const [key, child] of Object.entries(node as Record<string, unknown>)) {
        out.add(key);
        stack.push(child);
      }
    }
  }
  return out;
}

/**
 * Finishes an error the service is about to answer: its message, issues and body pass the
 * same guard and scrub. A blocked error becomes `OUTPUT_GUARD`; a scrubbed one is rebuilt
 * with the scrubbed texts.
 */
export function finishError(error: SvcError, options: FinishOptions): { error: SvcError; report: FinishReport; blockedPath?: string } {
  const view = { message: error.message, issues: error.issues, body: error.body ?? null };
  try {
    // An issue's `path` names the caller's field (built from the caller's keys): it is not a
    // statement of the service.
    const callerPaths = ['issues.*.path', 'body.error.issues.*.path'];
    const { answer, report } = finishAnswer(view, { ...options, callerPaths, schema: undefined });
    if (!report.secretScrubbed) return { error, report };
    const rebuilt = new SvcError(error.code, answer.message, {
      issues: answer.issues,
      body: answer.body ?? undefined,
      headers: error.headers,
    });
    return { error: rebuilt, report };
  } catch (blocked) {
    if (blocked instanceof OutputGuardBlocked)
      return { error: outputGuardError(), report: { secretScrubbed: false }, blockedPath: blocked.blockedPath };
    throw blocked;
  }
}
