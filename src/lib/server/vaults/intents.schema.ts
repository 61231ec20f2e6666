/** One call of a deposit or withdraw intent: calldata the depositor signs, in order. */
import { z } from 'zod';
import { addressShape, hexShape } from './pack-shapes';

export const intentCallSchema = z.object({ step: z.number().int(), to: addressShape, data: hexShape, description: z.string() });
