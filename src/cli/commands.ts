/**
 * The offline CLI's commands (issue 26, docs/cli.md): each reads its files, calls the same
 * domain functions the service runs (receipts, the receipt log, the local strategist, the
 * validator), and returns an outcome; src/cli/svc.ts prints it and exits with its code. No
 * command needs the service, its database or the network, except `--keys-url`, which fetches a
 * key set and is the one `network` failure.
 */
import { readFileSync } from 'node:fs';
import { riskAudit } from '../lib/server/coil/audit';
import { scoreCoil } from '../lib/server/coil/health';
import { coilSchema, type Coil } from '../lib/server/coil/manifest';
import { validateCoil } from '../lib/server/coil/validate';
import { parseIsoInstant } from '../lib/server/clock';
import { canonicalJson } from '../lib/server/canonical';
import { verifyArtifactReceipt } from '../lib/server/receipts/artifact';
import { checkConsistency, checkInclusion } from '../lib/server/receipts/log';
import { checkTlogProof } from '../lib/server/receipts/tlog';
import {
  buildReceipt,
  COMPILER_VERSION,
  RECEIPT_KINDS,
  RECEIPT_VERSION,
  receiptIdOf,
  verifyReceipt,
  type Receipt,
  type ReceiptKind,
} from '../lib/server/receipts/receipt';
import { inclusionPasses, inclusionVerdict } from '../lib/server/receipts/inclusion-rule';
import { checkSignature, signedPayload, type PublishedKey } from '../lib/server/receipts/signature';
import { ORACLE_POLICY_VERSION, REGISTRY_VERSION } from '../lib/server/registry';
import { generateCoil } from '../lib/server/strategist';
import { EXIT, type Outcome, UsageError, NetworkError } from './outcome';

type Json = Record<string, unknown>;
const isRecord = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);

export function readJsonFile(path: string, what: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    throw new UsageError('FILE_UNREADABLE', `cannot read the ${what} file ${path}`);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new UsageError('FILE_NOT_JSON', `the ${what} file ${path} is not JSON`);
  }
}

function parseCoil(value: unknown, where: string): Coil {
  const parsed = coilSchema.safeParse(value);
  if (!parsed.success) throw new UsageError('COIL_SHAPE', `${where} is not a Coil (${parsed.error.issues[0]?.path.join('.') || 'root'})`);
  return parsed.data;
}

/** A key set as the service answers it (GET /api/receipts/keys), or its `keys` array alone. */
export function keySetOf(value: unknown): PublishedKey[] {
  const keys = Array.isArray(value) ? value : isRecord(value) ? value.keys : undefined;
  if (!Array.isArray(keys) || !keys.every((k) => isRecord(k) && typeof k.kid === 'string' && typeof k.x === 'string'))
    throw new UsageError('KEYS_MALFORMED', 'the key set is not the answer of GET /api/receipts/keys nor its keys array');
  return keys as PublishedKey[];
}

export interface KeyOptions {
  keys?: string;
  keysUrl?: string;
}

/** The checkpointed log's note verifier keys and origin in a key set answer (GET /api/receipts/keys `checkpointLog`). */
export function checkpointKeysOf(value: unknown): { origin: string; noteVerifierKeys: string[] } | null {
  const log = isRecord(value) ? value.checkpointLog : undefined;
  if (!isRecord(log) || typeof log.origin !== 'string' || !Array.isArray(log.noteVerifierKeys)) return null;
  return { origin: log.origin, noteVerifierKeys: log.noteVerifierKeys.filter((k): k is string => typeof k === 'string') };
}

export async function loadKeys(options: KeyOptions): Promise<PublishedKey[]> {
  return keySetOf(await loadKeySetAnswer(options));
}

/**
 * The body of `url`, fetched (the CLI's one use of the network): `option` names the flag and
 * `code` the refusal (`<code>_URL_INVALID`, usage; `<code>_FETCH_FAILED`, network).
 */
async function fetchBody<T>(urlText: string, option: string, code: string, what: string, read: (res: Response) => Promise<T>): Promise<T> {
  let url: URL;
  try {
    url = new URL(urlText);
  } catch {
    throw new UsageError(`${code}_URL_INVALID`, `${option} is not a URL`);
  }
  let res: Response;
  try {
    res = await fetch(url, { signal: AbortSignal.timeout(10_000) });
  } catch {
    throw new NetworkError(`${code}_FETCH_FAILED`, `${what} could not be fetched`);
  }
  if (!res.ok) throw new NetworkError(`${code}_FETCH_FAILED`, `${what} answered HTTP ${res.status}`);
  try {
    return await read(res);
  } catch {
    throw new NetworkError(`${code}_FETCH_FAILED`, `${what} could not be read`);
  }
}

/** The key set answer as given (--keys) or fetched (--keys-url). */
async function loadKeySetAnswer(options: KeyOptions): Promise<unknown> {
  if (options.keys) return readJsonFile(options.keys, 'key set');
  if (options.keysUrl) return fetchBody(options.keysUrl, '--keys-url', 'KEYS', 'the key set', (res) => res.json());
  throw new UsageError('KEYS_REQUIRED', 'a key set is needed to check a signature: --keys <keys.json> or --keys-url <url>');
}

/** The receipt in a file: a bare receipt, or an answer that holds one (with its Coil, when the answer has it). */
function receiptAndCoilOf(value: unknown): { receipt: Json; coil?: unknown } {
  if (isRecord(value) && typeof value.receiptId === 'string') return { receipt: value };
  if (isRecord(value) && isRecord(value.receipt)) return { receipt: value.receipt, coil: value.coil };
  throw new UsageError('RECEIPT_SHAPE', 'the file holds neither a receipt nor an answer with a receipt');
}

export interface VerifyOptions extends KeyOptions {
  coil?: string;
  subject?: string;
  inclusion?: string;
  /** A c2sp.org/tlog-proof@v1 file (GET /api/receipts/log/proof/{receiptId}). */
  proof?: string;
  /** Where to fetch it. */
  proofUrl?: string;
  /** Inclusion is needed whatever the receipt's age or log status (receipts/inclusion-rule.ts). */
  requireInclusion?: boolean;
  /** The log's checkpoint interval in seconds (default 60, RECEIPT_LOG_CHECKPOINT_INTERVAL_SECONDS's). */
  checkpointInterval?: string;
}

const DEFAULT_CHECKPOINT_INTERVAL_SECONDS = 60;

function checkpointIntervalOf(value: string | undefined): number {
  if (value === undefined) return DEFAULT_CHECKPOINT_INTERVAL_SECONDS;
  const seconds = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(seconds))
    throw new UsageError('BAD_OPTION', '--checkpoint-interval must be a whole number of seconds');
  return seconds;
}

/** A proof file's text, read from a file or fetched. */
async function loadProofText(options: VerifyOptions): Promise<string | undefined> {
  if (options.proof) {
    try {
      return readFileSync(options.proof, 'utf8');
    } catch {
      throw new UsageError('FILE_UNREADABLE', `cannot read the proof file ${options.proof}`);
    }
  }
  if (!options.proofUrl) return undefined;
  return fetchBody(options.proofUrl, '--proof-url', 'PROOF', 'the proof file', (res) => res.text());
}

/**
 * Checks a receipt's inclusion in the checkpointed log by a proof file, with the checkpoint's
 * note verifier keys of the key set: the one check `svc verify --proof` runs. Its
 * `checkpoint.time` is the log's signed clock when the checkpoint was made (null when the
 * checkpoint carries no timestamped cosignature by the log's key).
 */
export function proofCheckOf(receipt: object, proofText: string, keySetAnswer: unknown): Json {
  const logKeys = checkpointKeysOf(keySetAnswer);
  if (!logKeys) return { ok: false, failures: ['CHECKPOINT_KEYS_MISSING'], index: null, checkpoint: null };
  const check = checkTlogProof(receipt, proofText, logKeys.noteVerifierKeys, logKeys.origin);
  const c = check.checkpoint;
  return {
    ok: check.ok,
    failures: check.failures,
    index: check.index,
    checkpoint:
      c.origin === null
        ? null
        : {
            origin: c.origin,
            treeSize: c.treeSize,
            rootHash: c.rootHash,
            time: c.time,
            timeStatus: c.timeStatus,
            verifierKey: c.verifierKey,
          },
  };
}

/**
 * `svc verify <receipt.json>`: the signature against the key set (required: an unsigned
 * receipt fails), every load-bearing hash recomputed from the Coil (or an artifact's subject)
 * when given, and the log inclusion when an inclusion answer is given.
 */
export async function verifyCommand(file: string, options: VerifyOptions): Promise<Outcome> {
  const { receipt, coil: embeddedCoil } = receiptAndCoilOf(readJsonFile(file, 'receipt'));
  const keySetAnswer = await loadKeySetAnswer(options);
  const keys = keySetOf(keySetAnswer);
  const proofText = await loadProofText(options);
  const checkpointIntervalSeconds = checkpointIntervalOf(options.checkpointInterval);
  const failures: string[] = [];
  const id = receipt.receiptId as string;
  // The inclusion first: a revoked key's receipt verifies only under a checkpoint signed before the revocation.
  let inclusion: Json | null = null;
  if (options.inclusion) {
    const check = checkInclusion(receipt, readJsonFile(options.inclusion, 'inclusion proof'), keys);
    failures.push(...check.failures);
    inclusion = { ok: check.ok, failures: check.failures, headSignature: check.head.signature.status };
  }
  let proof: Json | null = null;
  if (proofText !== undefined) {
    proof = proofCheckOf(receipt, proofText, keySetAnswer);
    failures.push(...(proof.failures as string[]));
  }
  const block = checkSignature(receipt, keys);
  const proofAt = proof?.ok ? (((proof.checkpoint as Json | null)?.time as string | null | undefined) ?? null) : null;
  const verdict = inclusionVerdict({
    logged: block.logged,
    signedAt: block.signedAt,
    proof: proof ? (proof.ok ? { ok: true, at: proofAt } : { ok: false }) : inclusion?.ok ? { ok: true, at: null } : null,
    now: new Date(),
    checkpointIntervalSeconds,
    required: options.requireInclusion,
  });
  const signatureOptions = { includedUnderCheckpointAt: verdict.provenAt };
  let hashes: Json;
  if (id.startsWith('hrcpt_')) {
    const coilValue = options.coil ? readJsonFile(options.coil, 'Coil') : embeddedCoil;
    if (coilValue !== undefined) {
      const verification = verifyReceipt(parseCoil(coilValue, 'the Coil'), receipt, keys, signatureOptions);
      failures.push(...verification.mismatches.map((m) => `MISMATCH_${m}`));
      hashes = { recomputedFromCoil: true, checked: verification.checked, mismatches: verification.mismatches };
    } else {
      // Without the Coil only what the receipt itself determines is recomputed.
      const kind = receipt.kind;
      const known = typeof kind === 'string' && (RECEIPT_KINDS as readonly string[]).includes(kind);
      const recomputedId =
        known && typeof receipt.manifestHash === 'string' && typeof receipt.generatedAt === 'string'
          ? receiptIdOf(kind as string, receipt.manifestHash, receipt.generatedAt)
          : null;
      const mismatches: string[] = [];
      if (recomputedId !== receipt.receiptId) mismatches.push('receiptId');
      if (receipt.anchoring !== 'paper') mismatches.push('anchoring');
      if (receipt.liveOrderSent !== false) mismatches.push('liveOrderSent');
      failures.push(...mismatches.map((m) => `MISMATCH_${m}`));
      hashes = { recomputedFromCoil: false, checked: ['receiptId', 'anchoring', 'liveOrderSent'], mismatches };
    }
  } else {
    const subject = options.subject ? readJsonFile(options.subject, 'subject') : undefined;
    const verification = verifyArtifactReceipt(receipt, subject, keys, signatureOptions);
    failures.push(...verification.mismatches.map((m) => `MISMATCH_${m}`));
    hashes = { recomputedFromSubject: subject !== undefined, checked: verification.checked, mismatches: verification.mismatches };
  }
  const signature = checkSignature(receipt, keys, signatureOptions);
  if (signature.status !== 'valid' && !failures.includes('MISMATCH_signature'))
    failures.push(`SIGNATURE_${signature.status.toUpperCase()}`);
  if (!inclusionPasses(verdict) && verdict.status !== 'failed') failures.push('INCLUSION_REQUIRED');
  const ok = failures.length === 0;
  return {
    exitCode: ok ? EXIT.success : EXIT.verificationFailed,
    result: { receiptId: id, ok, failures, signature, hashes, inclusion, proof, inclusionStatus: verdict.status },
    summary: ok
      ? `verified: ${id} is signed by key ${signature.keyId}${signature.signedAt ? ` at ${signature.signedAt}` : ''}${
          inclusion ? ' and included in the signed log head' : ''
        }${proof ? ` and is entry ${proof.index as number} of the log under its signed checkpoint` : ''}${
          verdict.status === 'not_logged' ? ' (inclusion: not_logged)' : ''
        }`
      : `NOT verified: ${id}: ${failures.join(', ')}`,
  };
}

/** `svc log-consistency <pinned-head.json> <consistency.json>`: the log only grew since the head you kept. */
export async function consistencyCommand(pinnedFile: string, answerFile: string, options: KeyOptions): Promise<Outcome> {
  const pinnedValue = readJsonFile(pinnedFile, 'head');
  const pinned = isRecord(pinnedValue) && isRecord(pinnedValue.head) ? pinnedValue.head : pinnedValue;
  const answer = readJsonFile(answerFile, 'consistency proof');
  const keys = await loadKeys(options);
  const check = checkConsistency(pinned, answer, keys);
  return {
    exitCode: check.ok ? EXIT.success : EXIT.verificationFailed,
    result: { ok: check.ok, failures: check.failures },
    summary: check.ok ? 'consistent: the log only grew since the pinned head' : `NOT consistent: ${check.failures.join(', ')}`,
  };
}

/** The operations `replay` re-runs: the Coil tools that issue a receipt from their input alone. */
const REPLAYABLE: Record<string, ReceiptKind | 'generate'> = {
  '/api/tools/generate-coil': 'generate',
  '/api/tools/validate-coil': 'validation',
  '/api/tools/score-coil': 'coil_manifest',
  '/api/tools/risk-audit': 'risk_fuse',
  '/api/tools/receipt': 'coil_manifest',
};

/** The versions this CLI carries: a receipt that names others cannot be replayed here. */
const CARRIED_VERSIONS = {
  receiptVersion: RECEIPT_VERSION,
  registryVersion: REGISTRY_VERSION,
  oraclePolicyVersion: ORACLE_POLICY_VERSION,
  compilerVersion: COMPILER_VERSION,
};

/**
 * `svc replay <request.json>`: re-runs a Coil tool offline from its request
 * (`{ path, body, answer? }`, body.nowIso required) with the versions this CLI carries, and,
 * when the answer is given, compares the receipt (and a generated Coil) byte for byte with it
 * (canonical JSON, the signature block aside).
 */
export async function replayCommand(file: string): Promise<Outcome> {
  const request = readJsonFile(file, 'request');
  if (!isRecord(request) || typeof request.path !== 'string' || !isRecord(request.body))
    throw new UsageError('REQUEST_SHAPE', 'the request file needs { path, body, answer? }');
  const operation = REPLAYABLE[request.path];
  if (!operation) throw new UsageError('NOT_REPLAYABLE', `${request.path} is not one of ${Object.keys(REPLAYABLE).join(', ')}`);
  const body = request.body;
  const now = typeof body.nowIso === 'string' ? parseIsoInstant(body.nowIso) : undefined;
  if (!now) throw new UsageError('NOW_ISO_REQUIRED', 'a replay needs the request’s nowIso (an ISO 8601 timestamp with a zone)');
  const answer = isRecord(request.answer) ? request.answer : isRecord(request.receipt) ? { receipt: request.receipt } : undefined;
  const expected = answer && isRecord(answer.receipt) ? answer.receipt : undefined;

  const failures: string[] = [];
  if (expected) {
    for (const [field, carried] of Object.entries(CARRIED_VERSIONS))
      if (expected[field] !== carried) failures.push(`${field.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase()}_UNAVAILABLE`);
    if (failures.length > 0)
      return {
        exitCode: EXIT.verificationFailed,
        result: {
          ok: false,
          failures,
          carried: CARRIED_VERSIONS,
          named: Object.fromEntries(Object.keys(CARRIED_VERSIONS).map((k) => [k, expected[k]])),
        },
        summary: `NOT replayed: the receipt names versions this CLI does not carry (${failures.join(', ')})`,
      };
  }

  let coil: Coil;
  let kind: ReceiptKind;
  if (operation === 'generate') {
    if (typeof body.prompt !== 'string') throw new UsageError('PROMPT_REQUIRED', 'generate-coil needs body.prompt');
    const generated = await generateCoil(
      { prompt: body.prompt, executionMode: body.executionMode as never },
      { config: { strategistProvider: 'mock', partner: { timeoutMs: 1 } }, now },
    );
    coil = generated.coil;
    kind = 'coil_manifest';
  } else {
    coil = parseCoil(body.coil, 'body.coil');
    const named = request.path === '/api/tools/receipt' ? (body.kind ?? 'coil_manifest') : operation;
    if (!(RECEIPT_KINDS as readonly unknown[]).includes(named))
      throw new UsageError('RECEIPT_KIND', `body.kind must be one of ${RECEIPT_KINDS.join(', ')}`);
    kind = named as ReceiptKind;
  }
  // A fork's parent is resolved by the service from its stored receipts; the answer names it.
  if (coil.forkOf && !coil.parentManifestHash && typeof expected?.parentManifestHash === 'string')
    coil = { ...coil, parentManifestHash: expected.parentManifestHash };
  const receipt: Receipt = buildReceipt(coil, kind, now);
  const replayed: Json = { receipt };
  if (operation === 'generate') replayed.coil = coil;
  if (request.path === '/api/tools/validate-coil') replayed.validation = validateCoil(coil);

  if (expected) {
    if (signedPayload(expected) !== canonicalJson(receipt)) failures.push('RECEIPT_DIFFERS');
    if (operation === 'generate' && answer?.coil !== undefined && canonicalJson(answer.coil) !== canonicalJson(coil))
      failures.push('COIL_DIFFERS');
  }
  const ok = failures.length === 0;
  return {
    exitCode: ok ? EXIT.success : EXIT.verificationFailed,
    result: { ok, compared: expected !== undefined, failures, replayed },
    summary: !expected
      ? `replayed ${request.path}: receipt ${receipt.receiptId} (nothing to compare: the request file has no answer)`
      : ok
        ? `replayed ${request.path}: byte-identical receipt ${receipt.receiptId}`
        : `NOT identical: ${failures.join(', ')}`,
  };
}

/** `svc coil "<thesis>"`: the local strategist, offline, and the Coil's receipt (unsigned: the CLI holds no key). */
export async function coilCommand(thesis: string, options: { now?: string }): Promise<Outcome> {
  if (thesis.trim() === '') throw new UsageError('PROMPT_REQUIRED', 'give a thesis: svc coil "<thesis>"');
  if (thesis.length > 2000) throw new UsageError('PROMPT_TOO_LONG', 'a thesis has at most 2000 characters');
  const now = options.now === undefined ? new Date() : parseIsoInstant(options.now);
  if (!now) throw new UsageError('NOW_ISO_INVALID', '--now is not an ISO 8601 timestamp with a zone');
  const generated = await generateCoil({ prompt: thesis }, { config: { strategistProvider: 'mock', partner: { timeoutMs: 1 } }, now });
  const receipt = buildReceipt(generated.coil, 'coil_manifest', now);
  return {
    exitCode: EXIT.success,
    result: { coil: generated.coil, health: generated.health, reading: generated.reading, receipt, disclaimers: generated.disclaimers },
    summary: `${generated.coil.name}: ${generated.coil.assets.map((a) => `${a.ticker} ${(a.weightBps / 100).toFixed(2)}%`).join(', ')} (receipt ${receipt.receiptId}, unsigned)`,
  };
}

/** `svc validate <coil.json>`: the service's validation rules, offline; an invalid Coil is a failed verification. */
export async function validateCommand(file: string): Promise<Outcome> {
  const value = readJsonFile(file, 'Coil');
  const coil = parseCoil(isRecord(value) && isRecord(value.coil) ? value.coil : value, 'the file');
  const validation = validateCoil(coil);
  const ok = validation.validationStatus !== 'invalid';
  return {
    exitCode: ok ? EXIT.success : EXIT.verificationFailed,
    result: { validation, health: scoreCoil(coil), fuses: riskAudit(coil).fuseChecksum },
    summary: `${validation.validationStatus}${validation.issues.length ? `: ${validation.issues.map((i) => i.code).join(', ')}` : ''}`,
  };
}
