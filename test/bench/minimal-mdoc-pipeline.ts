import { hash, type JsonWebKey, KeyObject, X509Certificate } from 'node:crypto';
import { employeePayload } from '../support/fixtures.js';
import { certificate } from '../support/issuer-x509.js';
import type { Answer } from './minimal-jwe.js';
import {
  MDOC_CLIENT_ID,
  MDOC_RESPONSE_URI,
  oid4vpTranscript,
  signIssuerSigned,
  verifyDeviceResponse,
} from './minimal-mdoc.js';
import { MINIMAL_ISSUER } from './minimal-sd-jwt.js';
import { cachedStatusList, signStatusListCwt } from './minimal-status-list-cwt.js';

/**
 * The mdoc half of the minimal pipeline (`minimal-pipeline.ts` routes to it): a root, a document
 * signer and a status list signer certified by it (made at start, not measured), an mdoc signed per
 * credential request, and a DeviceResponse checked per presentation with the chain's key cached by
 * the chain's digest and the CWT status list read once per ttl, as the service does both.
 */
const STATUS_TTL_SECONDS = 60;

/** `thumbprint`: the verifier's response encryption key's, which an encrypted answer's transcript binds. */
export async function startMdocPipeline(listSize: number, thumbprint: () => Uint8Array) {
  const root = await certificate({ subject: 'CN=Minimal IACA', ca: true, pathLength: 0 });
  const documentSigner = await certificate({ subject: 'CN=Minimal document signer', issuer: root });
  const statusSigner = await certificate({ subject: 'CN=Minimal status list', issuer: root });
  const der = (node: typeof root) => new Uint8Array(node.cert.rawData);
  const rootCertificate = new X509Certificate(der(root));
  const signerKey = KeyObject.from(documentSigner.keys.privateKey);
  const signerChain = der(documentSigner);

  /** The leaf's key of a chain to the root, validated once per chain and kept by its digest. */
  const chains = new Map<string, KeyObject>();
  const trust = (x5chain: Uint8Array[]): KeyObject | undefined => {
    const id = hash('sha256', Buffer.concat(x5chain), 'hex');
    let key = chains.get(id);
    if (!key) {
      const leaf = new X509Certificate(x5chain[0] as Uint8Array);
      const now = Date.now();
      if (
        !leaf.verify(rootCertificate.publicKey) ||
        leaf.validFromDate.getTime() > now ||
        leaf.validToDate.getTime() < now
      )
        return undefined;
      key = leaf.publicKey;
      chains.set(id, key);
    }
    return key;
  };

  const statusUri = `${MINIMAL_ISSUER}/status/mdoc`;
  const statusToken = signStatusListCwt(
    KeyObject.from(statusSigner.keys.privateKey),
    der(statusSigner),
    statusUri,
    new Uint8Array(listSize / 8),
    STATUS_TTL_SECONDS,
  );
  const isValid = cachedStatusList(() => statusToken, trust);

  return {
    /** An IssuerSigned (base64url) for the holder's proven key, its status at `idx`. */
    issue: (holder: JsonWebKey, idx: number) =>
      signIssuerSigned(signerKey, signerChain, holder, employeePayload(), { idx, uri: statusUri }),
    /**
     * Whether an answer (`vp_token`, and `state` standing for the session's nonce) verifies; an
     * encrypted one's transcript binds the encryption key's thumbprint, computed per answer as the
     * service does (settle-presentation.ts).
     */
    present({ vp_token, state }: Answer, encrypted: boolean): boolean {
      const token = Object.values(vp_token ?? {})[0]?.[0];
      const transcript = oid4vpTranscript(
        MDOC_CLIENT_ID,
        state ?? '',
        MDOC_RESPONSE_URI,
        encrypted ? thumbprint() : null,
      );
      const status = verifyDeviceResponse(token ?? '', transcript, trust);
      return !!status && isValid(status);
    },
  };
}
