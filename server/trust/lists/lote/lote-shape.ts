import { type LoTE, LoTEDocumentSchema, LoTESchema } from '@owf/eudi-lote';
import { TrustListError } from '../read-list.js';

/**
 * The shape a signed LoTE payload must have before anything in it is used: `@owf/eudi-lote`'s
 * `LoTEDocumentSchema` (ETSI TS 119 602's JSON syntax, `{ "LoTE": { ... } }`), with one correction:
 * `TrustedEntitiesList` is optional, as in TS 119 602's own JSON schema (`LoTE` requires only
 * `ListAndSchemeInformation`), so a list that only points to other lists can be read. Everything else is
 * the library's, including its strictness (URIs must be URIs, `ListIssueDateTime` and `NextUpdate` UTC
 * date-times), so a list the library would refuse is refused here too, whole.
 *
 * The schema objects belong to the library's own zod (4.x, nested under it; this project uses zod 3), so
 * they are only extended through their own methods, never mixed with this project's zod.
 */
const ReadableLoteSchema = LoTEDocumentSchema.extend({
  LoTE: LoTESchema.extend({ TrustedEntitiesList: LoTESchema.shape.TrustedEntitiesList.optional() }),
});

export type ReadableLote = Omit<LoTE, 'TrustedEntitiesList'> & {
  TrustedEntitiesList?: LoTE['TrustedEntitiesList'];
};

/** Checks the decoded payload; throws `malformed` naming the first offending path. */
export function checkLoteShape(document: unknown): ReadableLote {
  const result = ReadableLoteSchema.safeParse(document);
  if (!result.success) {
    const [first] = result.error.issues;
    const path = first?.path.length ? first.path.join('.') : '(the document)';
    throw new TrustListError(
      'malformed',
      `the LoTE is not shaped as TS 119 602 says: ${path}: ${first?.message}`,
    );
  }
  return result.data.LoTE;
}
