// What keeps one request's failure, or one forgotten promise, from ending the Node server
// (scripts/start.mjs). The pages and their assets are served by adapter-node's handler, whose
// static files come from sirv: kept as they are, and guarded from the outside.

/** File-system codes that mean the file is not there (any more): a 404, not a fault. */
const MISSING = new Set(['ENOENT', 'ENOTDIR', 'EISDIR']);

/**
 * The envelope of a refusal the Node server writes itself (request-target.mjs writes the same
 * shape for a request Node's parser refused).
 * @param {string} code
 * @param {string} message
 */
function envelope(code, message) {
  return JSON.stringify({ error: { code, message, issues: [{ code, message }] } });
}

/**
 * Answers `res` with the envelope, when no byte of another answer has left yet; otherwise the
 * connection is cut, since a client must not take a truncated file for a whole one.
 * @param {import('node:http').ServerResponse} res
 * @param {number} status
 * @param {string} code
 * @param {string} message
 */
function answerFailure(res, status, code, message) {
  if (res.headersSent || res.writableEnded) {
    res.destroy();
    return;
  }
  for (const name of res.getHeaderNames()) res.removeHeader(name);
  const body = envelope(code, message);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
  });
  res.end(body);
}

/**
 * Holds a response's head back until its first body byte or its end. sirv writes a file's
 * head (200, its length, `immutable`) and only then opens the file: when the file vanished in
 * between (a deploy replaced `build/` under the running server), the open fails after the head
 * was decided. Held back, that head can still be dropped for a 404. Nothing else changes: Node
 * sends a head with the first body bytes anyway.
 * @param {import('node:http').ServerResponse} res
 * @returns {{ drop(): void }} drops a head still held back
 */
function holdHead(res) {
  /** @type {unknown[] | null} */
  let held = null;
  const release = () => {
    // The own properties shadow the prototype's methods; deleting them restores Node's.
    delete res.writeHead;
    delete res.write;
    delete res.end;
    delete res.flushHeaders;
    if (held) res.writeHead(.../** @type {[number]} */ (held));
    held = null;
  };
  res.writeHead = (/** @type {unknown[]} */ ...args) => {
    held = args;
    return res;
  };
  for (const name of /** @type {const} */ (['write', 'end', 'flushHeaders'])) {
    res[name] = (/** @type {unknown[]} */ ...args) => {
      release();
      return /** @type {(...a: unknown[]) => unknown} */ (res[name]).apply(res, args);
    };
  }
  return {
    drop() {
      held = null;
      release();
    },
  };
}

/**
 * Serves one page or asset request with adapter-node's `handler`, so that nothing it does can
 * end the process: a file that vanished between sirv's start-up listing and its read answers
 * 404 in the envelope, any other read error 500, a thrown or rejected handler 500 (or a cut
 * connection when the answer had begun). Each failure is logged once, through `logFailure`.
 * @param {(req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse, next: () => void) => unknown} handler
 * @param {import('node:http').IncomingMessage} req
 * @param {import('node:http').ServerResponse} res
 * @param {(error: unknown, where: Record<string, unknown>) => void} logFailure
 */
export function servePage(handler, req, res, logFailure) {
  const head = holdHead(res);
  const path = (req.url ?? '/').split('?')[0];
  // sirv pipes the file's read stream into the response; a stream error without a listener
  // is thrown at the process (and ended it, issue 34 item 3).
  res.on('pipe', (source) => {
    source.once('error', (/** @type {NodeJS.ErrnoException} */ error) => {
      source.unpipe(res);
      const missing = MISSING.has(error.code ?? '');
      logFailure(error, { event: missing ? 'static_file_missing' : 'static_file_unreadable', code: error.code, path });
      if (!res.headersSent) head.drop();
      if (missing) answerFailure(res, 404, 'NOT_FOUND', 'No such file (it was removed while the server ran)');
      else answerFailure(res, 500, 'INTERNAL', 'The file could not be read');
    });
  });
  const failed = (/** @type {unknown} */ error) => {
    logFailure(error, { event: 'page_failed', path });
    if (!res.headersSent) head.drop();
    answerFailure(res, 500, 'INTERNAL', 'Internal error');
  };
  try {
    const result = handler(req, res, () => answerFailure(res, 404, 'NOT_FOUND', 'No such page'));
    if (result && typeof (/** @type {Promise<unknown>} */ (result).then) === 'function')
      /** @type {Promise<unknown>} */ (result).catch(failed);
  } catch (error) {
    failed(error);
  }
}

/**
 * The process-wide nets, for what no request catches.
 * - A promise rejected with nobody listening is logged once and the server keeps serving:
 *   Node's default since v15 ends the process, which would take every other client's request
 *   down for one forgotten `.catch`. A rejection leaves no half-run synchronous code behind,
 *   so the process state is as sound as before it.
 * - An exception thrown with nobody catching it is different: it unwound code in the middle,
 *   and Node documents that resuming after it is unsafe (state may be half-updated). It is
 *   logged once, the server stops taking connections, finishes the open requests (`drain`,
 *   the graceful stop) and exits 1 for the supervisor to restart it. The failures a request
 *   can cause (a vanished file, a stream error, a thrown or rejected handler) are caught at
 *   the request (`servePage`, http/node-front.ts), so none of them reaches this net.
 * @param {(error: unknown, where: Record<string, unknown>) => void} logFailure
 * @param {() => void} drain the graceful stop; it ends the process
 */
export function installProcessGuards(logFailure, drain) {
  process.on('unhandledRejection', (reason) => {
    logFailure(reason, { event: 'unhandled_rejection' });
  });
  let draining = false;
  process.on('uncaughtException', (error) => {
    logFailure(error, { event: 'uncaught_exception' });
    if (draining) return;
    draining = true;
    process.exitCode = 1;
    drain();
  });
}
