/**
 * Credential guard (interface 5, rule 3): no endpoint and no MCP tool accepts a credential. A request
 * whose body or query carries a field that is named like a credential, or a string that
 * looks like a seed phrase or a PEM private key, is refused before any processing.
 *
 * The findings carry the field path and the kind of credential, never the value: the
 * caller must not echo or log what was sent.
 */
import { english } from 'viem/accounts';
import { SvcError } from '../errors';

export interface CredentialFinding {
  /** Dotted path of the offending field ("" for the root value). */
  path: string;
  kind: 'credential_field' | 'seed_phrase' | 'pem_private_key' | 'extended_private_key';
}

/**
 * Field names are compared after lower-casing and removing `_`, `-`, `.` and spaces, so
 * `privateKey`, `private_key`, `private-key` and `PRIVATE KEY` are one rule.
 * Each entry matches when the normalised name contains it.
 */
export const CREDENTIAL_NAME_FRAGMENTS: readonly string[] = [
  'privatekey',
  'privkey',
  'secretkey',
  'clientsecret',
  'apisecret',
  'seedphrase',
  'seedwords',
  'recoveryphrase',
  'secretphrase',
  'mnemonic',
  'apikey',
  'accesskey',
  'password',
  'passwd',
  'passphrase',
  'brokeragelogin',
  'brokerlogin',
  'brokeragepassword',
  'brokeragecredential',
  'logincredential',
  'accesstoken',
  'refreshtoken',
  'authtoken',
  'bearertoken',
  'idtoken',
  'sessiontoken',
  'oauthtoken',
  'xprv',
  'keystore',
];

/** Names that are exactly a credential on their own (too short to match as fragments). */
export const CREDENTIAL_EXACT_NAMES: readonly string[] = ['secret', 'pin', 'otp', 'totp', 'seed', 'credentials', 'credential'];

const BIP39 = new Set(english);
const PEM_PRIVATE_KEY = /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----/;
const EXTENDED_PRIVATE_KEY = /\b[xyzt]prv[1-9A-HJ-NP-Za-km-z]{100,}\b/;
/** BIP-39 phrases have 12 to 24 words; 12 consecutive list words is the threshold. */
const SEED_MIN_WORDS = 12;
/** The shortest text that can hold 12 list words: the shortest are 3 letters, with a separator between each two. */
const SEED_MIN_CHARS = SEED_MIN_WORDS * 3 + SEED_MIN_WORDS - 1;

export function normaliseFieldName(name: string): string {
  return name.toLowerCase().replace(/[\s_.-]/g, '');
}

export function isCredentialFieldName(name: string): boolean {
  const n = normaliseFieldName(name);
  if (n.length === 0) return false;
  if (CREDENTIAL_EXACT_NAMES.includes(n)) return true;
  return CREDENTIAL_NAME_FRAGMENTS.some((fragment) => n.includes(fragment));
}

/** True when the text contains a run of at least 12 consecutive BIP-39 English words. */
export function looksLikeSeedPhrase(text: string): boolean {
  if (text.length < SEED_MIN_CHARS) return false;
  const words = text
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter(Boolean);
  if (words.length < SEED_MIN_WORDS) return false;
  let run = 0;
  for (const word of words) {
    run = BIP39.has(word) ? run + 1 : 0;
    if (run >= SEED_MIN_WORDS) return true;
  }
  return false;
}

function classifyString(text: string): CredentialFinding['kind'] | undefined {
  if (PEM_PRIVATE_KEY.test(text)) return 'pem_private_key';
  if (EXTENDED_PRIVATE_KEY.test(text)) return 'extended_private_key';
  if (looksLikeSeedPhrase(text)) return 'seed_phrase';
  return undefined;
}

const MAX_DEPTH = 64;

/**
 * Walks a parsed JSON value (and, for queries, a flat record) and reports every
 * credential-looking field or value. Depth is bounded so a hostile body cannot recurse
 * forever; anything deeper than the bound is itself reported as unsafe.
 */
export function findCredentials(value: unknown): CredentialFinding[] {
  const findings: CredentialFinding[] = [];
  const visit = (node: unknown, path: string, depth: number): void => {
    if (depth > MAX_DEPTH) {
      findings.push({ path, kind: 'credential_field' });
      return;
    }
    if (typeof node === 'string') {
      const kind = classifyString(node);
      if (kind) findings.push({ path, kind });
      return;
    }
    if (Array.isArray(node)) {
      node.forEach((item, i) => visit(item, path ? `${path}.${i}` : String(i), depth + 1));
      return;
    }
    if (node && typeof node === 'object') {
      for (const [key, child] of Object.entries(node as Record<string, unknown>)) {
        const childPath = path ? `${path}.${key}` : key;
        if (isCredentialFieldName(key)) {
          findings.push({ path: childPath, kind: 'credential_field' });
          continue;
        }
        const keyKind = classifyString(key);
        if (keyKind) {
          findings.push({ path: path || '(key)', kind: keyKind });
          continue;
        }
        visit(child, childPath, depth + 1);
      }
    }
  };
  visit(value, '', 0);
  return findings;
}

export const CREDENTIAL_REJECTION_MESSAGE =
  'This service never accepts credentials (private keys, seed phrases, API keys, passwords, brokerage logins or tokens). Remove the field; its value was not stored, logged or echoed.';

/**
 * Refuses a request that carries a credential, before any processing: the one refusal both
 * doors use (the API front for bodies and queries, the MCP server for tool arguments). The
 * issues name the field and the kind of credential, never its value.
 */
export function rejectCredentials(value: unknown, where: 'body' | 'query' | 'arguments'): void {
  const findings = findCredentials(value);
  if (findings.length === 0) return;
  throw new SvcError('CREDENTIAL_FIELD_REJECTED', CREDENTIAL_REJECTION_MESSAGE, {
    issues: findings.map((f) => ({
      code: 'CREDENTIAL_FIELD_REJECTED',
      message: `${where} field rejected (${f.kind.replace(/_/g, ' ')})`,
      path: f.path || '(root)',
    })),
  });
}
