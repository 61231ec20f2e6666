import { SvcError } from '../../src/lib/server/errors';

/** The SvcError a domain call throws; fails the test when it returns or throws anything else. */
export function svcError(fn: () => unknown): SvcError {
  try {
    fn();
  } catch (error) {
    if (error instanceof SvcError) return error;
    throw error;
  }
  throw new Error('expected a SvcError');
}

/** The SvcError an async domain call rejects with; fails the test when it resolves or rejects with anything else. */
export async function svcRejection(promise: Promise<unknown>): Promise<SvcError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof SvcError) return error;
    throw error;
  }
  throw new Error('expected a SvcError');
}
