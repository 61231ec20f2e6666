/**
 * The raw request target, read before anything parses it. The WHATWG URL parser resolves `.`
 * and `..` segments, `%2e%2e` too, and treats `\` as `/`, so `/api/vaults/%2e%2e?x=1` would
 * reach a router as `/api/?x=1` (SvelteKit even redirected it, 308 with the query repeated).
 * A target with a dot segment is never a client's honest request (browsers and HTTP clients
 * resolve them), so the API front refuses it with 400 PATH_MALFORMED, whichever face handed
 * it over and whatever path it names (http/front.ts). A face that only has a parsed URL (the
 * web face: SvelteKit builds its `Request` from a resolved URL) can never hand one over.
 */

/** A `.` or `..` segment, literal or percent-encoded, in the path part of a target (`\` counts as `/`). */
const DOT_SEGMENT = /^(?:[^?]*[\\/])?(?:\.|%2e){1,2}(?:[\\/?]|$)/i;

export function hasDotSegment(target: string): boolean {
  return DOT_SEGMENT.test(target);
}
