/**
 * Sign-In with Ethereum (EIP-4361) message rules. Parsing is strict (the siwe project's
 * ABNF parser: EIP-55 addresses, RFC 3339 times, the exact line layout); the checks below
 * are the ones a parser cannot make, because they depend on this service's ORIGIN and the
 * time of the request. Each failing check throws its own reason code.
 */
import { ParsedMessage } from '@spruceid/siwe-parser';
import { getAddress } from 'viem';
import type { ServerTime } from '../clock';
import { SvcError } from '../errors';
import { AUTH_CODES, type AuthCode } from './errors';
import { CLOCK_SKEW_MS, SIGN_IN_CHAIN_IDS } from './policy';

export interface SiweFields {
  domain: string;
  scheme?: string;
  /** EIP-55 checksummed. */
  address: `0x${string}`;
  statement?: string;
  uri: string;
  version: string;
  chainId: number;
  nonce: string;
  issuedAt: Date;
  expirationTime?: Date;
  notBefore?: Date;
}

export interface SiweExpectations {
  /** This service's public origin (ORIGIN), e.g. `https://svc.example:8443`. */
  origin: string;
  /** The request's arrival time (never a caller-chosen clock: see `checkSiweFields`). */
  now: ServerTime;
}

function refuse(code: AuthCode, message: string, field: string): never {
  throw new SvcError(code, message, { issues: [{ code, message, path: field }] });
}

function instant(value: string | undefined, field: string): Date | undefined {
  if (value === undefined) return undefined;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) refuse(AUTH_CODES.SIWE_MESSAGE_MALFORMED, `${field} is not a valid RFC 3339 time`, `message.${field}`);
  return date;
}

/** Parses an EIP-4361 message; anything the grammar refuses is `SIWE_MESSAGE_MALFORMED`. */
export function parseSiweMessage(message: string): SiweFields {
  let parsed: ParsedMessage;
  try {
    parsed = new ParsedMessage(message);
  } catch {
    // The parser's own message quotes the caller's text, so it is not passed on.
    refuse(
      AUTH_CODES.SIWE_MESSAGE_MALFORMED,
      'The message is not a valid EIP-4361 message (each line as the standard lays it out, EIP-55 address, RFC 3339 times)',
      'message',
    );
  }
  return {
    domain: parsed.domain,
    scheme: parsed.scheme,
    address: getAddress(parsed.address),
    statement: parsed.statement,
    uri: parsed.uri,
    version: parsed.version,
    chainId: parsed.chainId,
    nonce: parsed.nonce,
    issuedAt: instant(parsed.issuedAt, 'issuedAt')!,
    expirationTime: instant(parsed.expirationTime, 'expirationTime'),
    notBefore: instant(parsed.notBefore, 'notBefore'),
  };
}

/**
 * The checks that bind a message to this service and to this moment. `now` must be the
 * server's own clock: a caller-pinned clock (`nowIso`) would let an expired message or
 * nonce pass again.
 */
export function checkSiweFields(fields: SiweFields, expect: SiweExpectations): void {
  const origin = new URL(expect.origin);
  if (fields.domain.toLowerCase() !== origin.host.toLowerCase()) {
    refuse(AUTH_CODES.SIWE_DOMAIN_MISMATCH, `The message is for another domain, not for ${origin.host}`, 'message.domain');
  }
  if (fields.scheme !== undefined && `${fields.scheme.toLowerCase()}:` !== origin.protocol) {
    refuse(AUTH_CODES.SIWE_DOMAIN_MISMATCH, `The message's scheme is not ${origin.protocol.slice(0, -1)}`, 'message.scheme');
  }
  let uriOrigin: string | undefined;
  try {
    uriOrigin = new URL(fields.uri).origin;
  } catch {
    uriOrigin = undefined;
  }
  if (uriOrigin !== origin.origin) {
    refuse(AUTH_CODES.SIWE_URI_MISMATCH, `The message's URI is not on ${origin.origin}`, 'message.uri');
  }
  if (fields.version !== '1') {
    refuse(AUTH_CODES.SIWE_VERSION_UNSUPPORTED, 'Only version 1 of EIP-4361 is accepted', 'message.version');
  }
  if (!SIGN_IN_CHAIN_IDS.includes(fields.chainId)) {
    refuse(AUTH_CODES.SIWE_CHAIN_UNSUPPORTED, 'This chain is not accepted; sign in on chain 4663 or 1', 'message.chainId');
  }
  const now = expect.now.getTime();
  if (fields.issuedAt.getTime() > now + CLOCK_SKEW_MS) {
    refuse(AUTH_CODES.SIWE_ISSUED_IN_FUTURE, 'The message is issued in the future', 'message.issuedAt');
  }
  if (fields.expirationTime && fields.expirationTime.getTime() <= now) {
    refuse(AUTH_CODES.SIWE_MESSAGE_EXPIRED, 'The message has expired', 'message.expirationTime');
  }
  if (fields.notBefore && fields.notBefore.getTime() > now + CLOCK_SKEW_MS) {
    refuse(AUTH_CODES.SIWE_NOT_YET_VALID, 'The message is not valid yet (notBefore)', 'message.notBefore');
  }
}
