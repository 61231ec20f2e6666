import { z } from 'zod';

/** The `{slug}` of a vault route. */
export const slugInput = z.string().min(1).max(100).describe('A vault slug or address');
