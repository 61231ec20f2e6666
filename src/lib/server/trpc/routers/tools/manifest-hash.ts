/** The manifest-hash path parameter of the routes that read a stored manifest. */
import { z } from 'zod';
import { SHA256_HEX } from '../../../coil/manifest';
import { SvcError } from '../../../errors';

export const manifestHashParam = z.string().regex(SHA256_HEX, 'expected 64 lowercase hex digits');

/** 404 MANIFEST_NOT_FOUND: nothing of this manifest is stored, and `hint` says what would store it. */
export function manifestNotFound(message: string, hint: string): SvcError {
  return new SvcError('MANIFEST_NOT_FOUND', message, {
    issues: [{ code: 'MANIFEST_NOT_FOUND', message: hint, path: 'manifestHash' }],
  });
}
