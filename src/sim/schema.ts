/** The `sim:` block of a `provider: sim` model in a models file. Placeholder: the sim work fills it in. */
import { z } from 'zod';

export const SimParams = z.looseObject({ seed: z.number().int().optional() });
export type SimParams = z.output<typeof SimParams>;
