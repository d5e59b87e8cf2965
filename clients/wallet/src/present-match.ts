import type { SessionTranscript } from '@owf/mdoc';
import type { HolderCrypto } from './holder-crypto.js';
import { mdocItemsToDisclose } from './mdoc-claims.js';
import { createMdocPresentation } from './mdoc-presentation.js';
import type { PresentationMisbehaviour } from './present-credentials.js';
import { splitSdJwt } from './sd-jwt.js';
import { createSdJwtPresentation } from './sd-jwt-presentation.js';
import type { DcqlClaimsQuery, DcqlMatch } from './select-for-dcql.js';
import type { TransactionDataHashes } from './transaction-data-hashes.js';

/** What ties a presentation to its request, per format. */
export interface PresentationBinding {
  /** The KB-JWT's `nonce` and `aud` of an SD-JWT VC. */
  nonce: string;
  audience: string;
  /** The SessionTranscript an mdoc's device signature covers; computed only when an mdoc is presented. */
  sessionTranscript: () => Promise<SessionTranscript>;
  /** The KB-JWT claims for the transaction data each query's presentation authorizes, by query id. */
  transactionDataHashes?: Record<string, TransactionDataHashes>;
}

/**
 * The vp_token entry for one match in its credential's format: an SD-JWT+KB with the chosen
 * disclosures, or a base64url DeviceResponse with the chosen data elements. Of the misbehaviours,
 * an mdoc knows `discloseAll` (and a wrong nonce or audience through its transcript); the others
 * are about SD-JWT parts an mdoc does not have.
 */
export async function createPresentation(
  match: DcqlMatch,
  binding: PresentationBinding,
  crypto: HolderCrypto,
  bad: PresentationMisbehaviour = {},
): Promise<string> {
  const { credential } = match;
  if (credential.format === 'mso_mdoc') {
    const every: DcqlClaimsQuery[] = Object.entries(credential.claims).flatMap(([namespace, elements]) =>
      Object.keys(elements).map((element) => ({ path: [namespace, element] })),
    );
    return createMdocPresentation(
      {
        credential: credential.compact,
        items: mdocItemsToDisclose(bad.discloseAll ? every : match.claims),
        holderKeyId: credential.holderKeyId,
        deviceKey: credential.deviceKey,
        sessionTranscript: await binding.sessionTranscript(),
      },
      crypto,
    );
  }
  // readTransactionData refuses transaction data naming an mdoc query, so only an SD-JWT has any.
  const transactionDataHashes = binding.transactionDataHashes?.[match.queryId];
  return createSdJwtPresentation(
    {
      credential: credential.compact,
      disclosures: bad.discloseAll ? splitSdJwt(credential.compact).disclosures : match.disclosures,
      holderKeyId: credential.holderKeyId,
      nonce: binding.nonce,
      audience: binding.audience,
      ...(transactionDataHashes ? { transactionDataHashes } : {}),
      ...(bad.issuedAt !== undefined ? { issuedAt: bad.issuedAt } : {}),
      ...(bad.tamperDisclosure ? { tamperDisclosure: true } : {}),
      ...(bad.skipKeyBinding ? { skipKeyBinding: true } : {}),
    },
    crypto,
  );
}
