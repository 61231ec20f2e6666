/** What the operations of the system family share. */
import { z } from 'zod';

/** The input of a route that reads nothing but the clock field (kept unchecked here, as it always was). */
export const clockOnlyInput = z.object({ nowIso: z.string().optional() }).optional();
