/**
 * The request's cookies as a procedure reads and writes them (`ctx.cookies`), without a web
 * framework: the `cookie` header is parsed on first read only (most requests never look),
 * and every cookie set or deleted becomes one `set-cookie` line of the answer.
 */
import { parse, serialize } from 'cookie';

export interface CookieOptions {
  path: string;
  httpOnly?: boolean;
  secure?: boolean;
  sameSite?: 'lax' | 'strict' | 'none';
  expires?: Date;
  maxAge?: number;
}

export interface CookieJar {
  get(name: string): string | undefined;
  set(name: string, value: string, options: CookieOptions): void;
  /** Tells the browser to drop the cookie (an empty value that expired at the epoch). */
  delete(name: string, options: CookieOptions): void;
}

export class RequestCookieJar implements CookieJar {
  private parsed: Record<string, string | undefined> | undefined;
  /** The `set-cookie` lines, in the order they were set (one per name: the last one wins). */
  private readonly outgoing = new Map<string, string>();

  constructor(private readonly header: string | undefined) {}

  get(name: string): string | undefined {
    this.parsed ??= this.header ? parse(this.header) : {};
    return this.parsed[name];
  }

  set(name: string, value: string, options: CookieOptions): void {
    this.outgoing.set(name, serialize(name, value, options));
  }

  delete(name: string, options: CookieOptions): void {
    this.set(name, '', { ...options, expires: new Date(0), maxAge: 0 });
  }

  setCookieLines(): string[] {
    return [...this.outgoing.values()];
  }
}

/**
 * The jar of a caller without cookies (the MCP doors, in-process calls): nothing to read, and
 * a procedure that tried to set a cookie there would be a bug worth a 500 rather than a
 * silently lost session.
 */
export const NO_COOKIES: CookieJar = {
  get: () => undefined,
  set: () => {
    throw new Error('this request has no cookie jar (called without HTTP)');
  },
  delete: () => {
    throw new Error('this request has no cookie jar (called without HTTP)');
  },
};
