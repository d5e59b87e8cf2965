import type { ZodError } from 'zod';

/** Turns a zod error into one entry per offending field, without the validator's internals. */
export function fieldErrors(error: ZodError, prefix?: string): { field: string; message: string }[] {
  return error.issues.map((issue) => {
    const field = [prefix, ...issue.path].filter((p) => p !== undefined && p !== '').join('.');
    if (issue.code === 'unrecognized_keys') {
      return { field: field || '(body)', message: `unknown field(s): ${issue.keys.join(', ')}` };
    }
    return { field: field || '(body)', message: issue.message };
  });
}
