import { type ReadList, TrustListError } from '../read-list.js';
import { envelopedSignature } from './enveloped-signature.js';
import { listText } from './list-text.js';
import { parseListXml } from './parse-list-xml.js';
import { pinnedSigner } from './pinned-signer.js';
import { readProviders } from './read-providers.js';
import { readSchemeInformation } from './read-scheme-information.js';

export interface ReadTrustedListOptions {
  /**
   * The time the list must still be current at; the current time when absent. The reader applies no
   * grace of its own: a caller that accepts a list some time past its NextUpdate (a member state that
   * publishes late, a fetch that failed) passes `now` minus that grace.
   */
  now?: Date;
}

/**
 * Reads an ETSI TS 119 612 trusted list or the EU List of Trusted Lists (LOTL): XML with an enveloped
 * XAdES signature. `pinned` holds the certificates (standard base64 DER) the list's operator may sign
 * with: for the LOTL, those the Official Journal announces; for a member state's list, those the LOTL's
 * pointer to it gives.
 *
 * In order, each step refusing with a TrustListError before the next runs:
 * 1. size and raw text: `too_large`; a DTD, entity declaration, processing instruction or non-UTF-8
 *    text is `malformed` (list-text.ts), before any parser sees it;
 * 2. strict parsing (parse-list-xml.ts): `malformed`;
 * 3. the one enveloped signature, covering exactly the root element (enveloped-signature.ts):
 *    `signature_invalid`, which also covers an unsigned list;
 * 4. cryptographic verification with a pinned certificate from KeyInfo (pinned-signer.ts):
 *    `signature_invalid` or `signer_not_pinned`;
 * 5. reading, from that same root element only (read-scheme-information.ts, read-providers.ts);
 * 6. `expired` when `now` is after NextUpdate. Checked last, so `expired` is only ever said of a list
 *    whose signature was good.
 */
export async function readTrustedList(
  xml: Buffer | string,
  pinned: readonly string[],
  options: ReadTrustedListOptions = {},
): Promise<ReadList> {
  const document = parseListXml(listText(xml));
  const { root, signature } = envelopedSignature(document);
  const signedBy = await pinnedSigner(document, signature, pinned);
  const { pointers, ...scheme } = readSchemeInformation(root);
  const entities = readProviders(root);
  const now = options.now ?? new Date();
  if (scheme.nextUpdate && now.getTime() > scheme.nextUpdate.getTime()) {
    throw new TrustListError(
      'expired',
      `the list's NextUpdate ${scheme.nextUpdate.toISOString()} is before ${now.toISOString()}`,
    );
  }
  return { ...scheme, entities, pointers, signedBy };
}
