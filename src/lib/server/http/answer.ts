/**
 * What the API front answers, before either server face writes it: a status, headers and
 * the body text. Neither a Node response nor a web `Response`, so the pipeline is written once
 * for both faces (http/node-front.ts, http/fetch-front.ts).
 */
import type { HeaderWriter } from '../trpc/context';

export type AnswerHeaders = Record<string, string | string[]>;

export interface ApiAnswer {
  status: number;
  /** Lowercase names. `set-cookie` is the only list. */
  headers: AnswerHeaders;
  /** Text, or bytes for the one binary answer (the share card as a PNG image). */
  body: string | Uint8Array;
}

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

export function jsonAnswer(status: number, text: string, headers: AnswerHeaders = {}): ApiAnswer {
  return { status, headers: { ...headers, 'content-type': JSON_CONTENT_TYPE }, body: text };
}

/** The headers a procedure adds to its answer (`ctx.resHeaders`), as a plain record. */
export class AnswerHeaderBag implements HeaderWriter {
  readonly values: Record<string, string> = {};

  set(name: string, value: string): void {
    this.values[name.toLowerCase()] = value;
  }
}

/** A web `Response` (the /trpc and /mcp handlers answer with one) as an answer. */
export async function answerOfResponse(response: Response, extra: AnswerHeaders = {}): Promise<ApiAnswer> {
  const headers: AnswerHeaders = {};
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie' && name !== 'content-length') headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length) headers['set-cookie'] = cookies;
  return { status: response.status, headers: { ...headers, ...extra }, body: await response.text() };
}
