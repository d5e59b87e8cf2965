import { z } from 'zod';

/** RFC 9457 problem details: the error body of the integrator and admin APIs. */
export const ProblemDetails = z
  .object({
    type: z
      .string()
      .describe('Stable identifier of the kind of problem, e.g. urn:credservice:problem:conflict'),
    title: z.string(),
    status: z.number().int(),
    detail: z.string().optional(),
    instance: z.string().optional(),
    errors: z
      .array(z.object({ field: z.string(), message: z.string() }))
      .optional()
      .describe('For validation problems: each offending field and what is wrong with it'),
  })
  .describe('application/problem+json');

export type ProblemDetails = z.infer<typeof ProblemDetails>;
