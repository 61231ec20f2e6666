/**
 * `svc`, the offline CLI of the Strategy Basket Service (the package's `bin`; docs/cli.md).
 * Built by vite.cli.config.ts into build-cli/svc.mjs, one file with no runtime dependency
 * beyond Node: no database client, no web framework.
 *
 * Output: one line for a person, or with `--json` one envelope on stdout:
 *   { cli, version, command, ok, exitCode, result, error, notInvestmentAdvice, liveOrderSent }
 * Colour only on a terminal (and never with NO_COLOR set).
 */
import { parseArgs } from 'node:util';
import { coilCommand, consistencyCommand, replayCommand, validateCommand, verifyCommand } from './commands';
import { EXIT, NetworkError, UsageError, type Outcome } from './outcome';

export const CLI_VERSION = '1.0.0';

const KEY_OPTIONS = {
  keys: { type: 'string' },
  'keys-url': { type: 'string' },
} as const;

interface CommandSpec {
  usage: string;
  help: string;
  options: Record<string, { type: 'string' | 'boolean' }>;
  positionals: number;
  run: (args: string[], values: Record<string, string | boolean | undefined>) => Promise<Outcome>;
}

const COMMANDS: Record<string, CommandSpec> = {
  verify: {
    usage:
      'svc verify <receipt.json> (--keys <keys.json> | --keys-url <url>) [--coil <coil.json>] [--subject <artifact.json>] [--inclusion <inclusion.json>] [--proof <receipt.tlog-proof> | --proof-url <url>] [--require-inclusion] [--checkpoint-interval <seconds>] [--json]',
    help: [
      "Checks a receipt without trusting the service: the service's Ed25519 signature against its key set (an unsigned receipt",
      'fails), every load-bearing hash recomputed from the Coil (from --coil, or the answer the file holds) or, for an arcpt_',
      'receipt, from its subject, and with --inclusion the answer of GET /api/receipts/log/inclusion/{receiptId}: the receipt is',
      'a leaf of the log under a head the service signed. The receipt file may be the receipt or the whole tool answer.',
      'With --proof, a c2sp.org/tlog-proof@v1 file (GET /api/receipts/log/proof/{receiptId}; --proof-url fetches it): the entry',
      "SHA-256(salt || the receipt's bytes), salt from its extra line, is in the checkpointed log under the checkpoint it holds,",
      "signed by a note verifier key of the key set (checkpointLog.noteVerifierKeys); the checkpoint's signed time is printed.",
      '--keys is the saved answer of GET /api/receipts/keys; --keys-url fetches it (with --proof-url, the only network use).',
      "The signature block's signedAt must fall in its key's period, and a revoked key's receipt fails unless it was signed",
      'before the revocation and a proof file shows it under a checkpoint signed before it. A receipt whose block says',
      'logged: true needs a proof once it is older than one checkpoint interval (--checkpoint-interval, default 60 s);',
      '--require-inclusion needs one always. A receipt the service did not log verifies by signature and key period',
      '(inclusion: not_logged).',
    ].join('\n'),
    options: {
      ...KEY_OPTIONS,
      coil: { type: 'string' },
      subject: { type: 'string' },
      inclusion: { type: 'string' },
      proof: { type: 'string' },
      'proof-url': { type: 'string' },
      'require-inclusion': { type: 'boolean' },
      'checkpoint-interval': { type: 'string' },
    },
    positionals: 1,
    run: ([file], v) =>
      verifyCommand(file!, {
        keys: v.keys as string | undefined,
        keysUrl: v['keys-url'] as string | undefined,
        coil: v.coil as string | undefined,
        subject: v.subject as string | undefined,
        inclusion: v.inclusion as string | undefined,
        proof: v.proof as string | undefined,
        proofUrl: v['proof-url'] as string | undefined,
        requireInclusion: v['require-inclusion'] === true,
        checkpointInterval: v['checkpoint-interval'] as string | undefined,
      }),
  },
  'log-consistency': {
    usage: 'svc log-consistency <pinned-head.json> <consistency.json> (--keys <keys.json> | --keys-url <url>) [--json]',
    help: [
      'Checks that the receipt log only grew since a head you kept (the answer of GET /api/receipts/log/head): the',
      'consistency answer (GET /api/receipts/log/consistency?first=<your treeSize>) must prove that the newer signed head',
      'extends yours. A dropped, reordered or rewritten entry fails.',
    ].join('\n'),
    options: { ...KEY_OPTIONS },
    positionals: 2,
    run: ([pinned, answer], v) =>
      consistencyCommand(pinned!, answer!, { keys: v.keys as string | undefined, keysUrl: v['keys-url'] as string | undefined }),
  },
  replay: {
    usage: 'svc replay <request.json> [--json]',
    help: [
      'Re-runs a Coil tool offline from its request and compares the receipt byte for byte (canonical JSON, signature',
      'aside). The file is { "path": "/api/tools/<tool>", "body": { ..., "nowIso": "<timestamp>" }, "answer": <the answer> }',
      'for generate-coil, validate-coil, score-coil, risk-audit or receipt. A receipt naming a registry, oracle-policy,',
      'receipt or compiler version this CLI does not carry fails: it cannot be replayed here.',
    ].join('\n'),
    options: {},
    positionals: 1,
    run: ([file]) => replayCommand(file!),
  },
  coil: {
    usage: 'svc coil "<thesis>" [--now <ISO timestamp>] [--json]',
    help: "Turns a thesis into a Coil with the service's local strategist, offline, with its receipt (unsigned: the CLI holds no key). --now pins its timestamps.",
    options: { now: { type: 'string' } },
    positionals: 1,
    run: ([thesis], v) => coilCommand(thesis!, { now: v.now as string | undefined }),
  },
  validate: {
    usage: 'svc validate <coil.json> [--json]',
    help: "Validates a Coil with the service's rules, offline. An invalid Coil exits 1; valid-with-warnings exits 0.",
    options: {},
    positionals: 1,
    run: ([file]) => validateCommand(file!),
  },
};

const OVERVIEW = `svc ${CLI_VERSION}: check the Strategy Basket Service's answers without trusting it.

Commands:
${Object.values(COMMANDS)
  .map((c) => `  ${c.usage}`)
  .join('\n')}

Every command takes --json (one stable envelope on stdout) and --help.
Exit codes: 0 success, 1 verification failed, 2 usage, 3 network, 4 unknown.
A signature proves who issued an answer, never that an order was placed: nothing here places one.`;

function colour(code: number, text: string): string {
  return process.stdout.isTTY && !process.env.NO_COLOR ? `\u001b[${code}m${text}\u001b[0m` : text;
}

function envelope(command: string | null, exitCode: number, result: unknown, error: { code: string; message: string } | null) {
  return {
    cli: 'svc',
    version: CLI_VERSION,
    command,
    ok: exitCode === EXIT.success,
    exitCode,
    result,
    error,
    notInvestmentAdvice: true,
    liveOrderSent: false,
  };
}

export async function main(argv: string[]): Promise<number> {
  const json = argv.includes('--json');
  const [name, ...rest] = argv;
  const spec = name ? COMMANDS[name] : undefined;
  const fail = (exitCode: number, code: string, message: string, usage?: string) => {
    if (json) process.stdout.write(`${JSON.stringify(envelope(spec ? name! : null, exitCode, null, { code, message }))}\n`);
    else process.stderr.write(`${colour(31, 'error')} ${code}: ${message}${usage ? `\nusage: ${usage}` : ''}\n`);
    return exitCode;
  };
  if (!name || name === '--help' || name === '-h' || name === 'help' || (name === '--json' && rest.length === 0)) {
    if (json)
      process.stdout.write(`${JSON.stringify(envelope(null, EXIT.success, { commands: Object.keys(COMMANDS), help: OVERVIEW }, null))}\n`);
    else process.stdout.write(`${OVERVIEW}\n`);
    return name ? EXIT.success : EXIT.usage;
  }
  if (name === '--version') {
    process.stdout.write(`${CLI_VERSION}\n`);
    return EXIT.success;
  }
  if (!spec) return fail(EXIT.usage, 'UNKNOWN_COMMAND', `no command ${JSON.stringify(name)}; see svc --help`);
  if (rest.includes('--help') || rest.includes('-h')) {
    if (json) process.stdout.write(`${JSON.stringify(envelope(name, EXIT.success, { usage: spec.usage, help: spec.help }, null))}\n`);
    else process.stdout.write(`usage: ${spec.usage}\n\n${spec.help}\n`);
    return EXIT.success;
  }
  let values: Record<string, string | boolean | undefined>;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: rest,
      options: { ...spec.options, json: { type: 'boolean' } },
      allowPositionals: true,
      strict: true,
    }));
  } catch (error) {
    return fail(EXIT.usage, 'USAGE', (error as Error).message, spec.usage);
  }
  if (positionals.length !== spec.positionals)
    return fail(EXIT.usage, 'USAGE', `expected ${spec.positionals} argument(s), got ${positionals.length}`, spec.usage);
  let outcome: Outcome;
  try {
    outcome = await spec.run(positionals, values);
  } catch (error) {
    if (error instanceof UsageError) return fail(EXIT.usage, error.code, error.message, spec.usage);
    if (error instanceof NetworkError) return fail(EXIT.network, error.code, error.message);
    return fail(EXIT.unknown, 'UNKNOWN', error instanceof Error ? error.message : String(error));
  }
  if (json) process.stdout.write(`${JSON.stringify(envelope(name, outcome.exitCode, outcome.result, null))}\n`);
  else {
    const mark = outcome.exitCode === EXIT.success ? colour(32, 'ok') : colour(31, 'FAILED');
    process.stdout.write(`${mark} ${outcome.summary}\n`);
    if (name === 'coil' || name === 'replay') process.stdout.write(`${JSON.stringify(outcome.result, null, 2)}\n`);
  }
  return outcome.exitCode;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`error UNKNOWN: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = EXIT.unknown;
  },
);
