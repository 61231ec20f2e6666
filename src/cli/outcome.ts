/** What a CLI command answers, its exit codes, and the errors that map to them (docs/cli.md#exit-codes). */

/** One meaning each. */
export const EXIT = {
  success: 0,
  /** A receipt, signature, proof, replay or Coil did not verify. */
  verificationFailed: 1,
  /** A wrong command, option or input file. */
  usage: 2,
  /** `--keys-url` could not be fetched. */
  network: 3,
  /** Anything else: a bug of the CLI. */
  unknown: 4,
} as const;

export interface Outcome {
  exitCode: number;
  result: unknown;
  /** One line for a person. */
  summary: string;
}

export class UsageError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export class NetworkError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}
