/** The validation of a Coil (coil/validate.ts) as answers show it. */
import { z } from 'zod';

export const issueOut = z.object({
  severity: z.enum(['error', 'warning']),
  code: z.string(),
  message: z.string(),
  path: z.string().optional(),
});

export const validationStatusOut = z.enum(['valid', 'valid-with-warnings', 'invalid']);

export const validationOut = z.object({
  valid: z.boolean(),
  validationStatus: validationStatusOut.describe('derived from the issues'),
  issues: z.array(issueOut),
});
