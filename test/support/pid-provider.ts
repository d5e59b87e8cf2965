import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { JWK } from 'jose';
import { fullDate } from '../../server/formats/mso-mdoc/cbor-values.js';
import { signIssuerSigned } from '../../server/formats/mso-mdoc/sign-issuer-signed.js';
import { type IssuerPki, issuerPki, issueWithX5c, statusListWithX5c } from './issuer-x509.js';
import { type MdocPki, mdocPki } from './mdoc-issuer.js';

/**
 * A PID provider made in the test, as a member state's would be: its own CA (root → intermediate →
 * leaf for SD-JWT VCs, an IACA and a document signer for mdocs), PIDs issued with @sd-jwt (SD-JWT
 * VC of `urn:eudi:pid:1`) or as ISO mdocs of `eu.europa.ec.eudi.pid.1`, and a Token Status List it
 * publishes on loopback, signed by its leaf. The tenant trusts it by its roots, as an operator
 * would add a PID provider's CA.
 */
export const PID_VCT = 'urn:eudi:pid:1';
/** The PID's mdoc doctype, which is also the namespace of its elements. */
export const PID_DOCTYPE = 'eu.europa.ec.eudi.pid.1';

export interface Person {
  family_name: string;
  given_name: string;
  /** RFC 3339 full-date. */
  birth_date: string;
}

const DAY = 86_400_000;

export interface PidProvider {
  host: string;
  pki: IssuerPki;
  mdoc: MdocPki;
  /** The status list's address (the entry of each SD-JWT PID points here). */
  statusListUri: string;
  /**
   * Marks an entry revoked. A verifier keeps a list it read for the list's ttl (60 s), so revoke
   * before any PID of this provider is presented.
   */
  revoke(idx: number): void;
  /** An SD-JWT VC PID bound to `holderJwk`, with entry `idx` in the status list. */
  sdJwt(holderJwk: JWK, person: Person, idx?: number): Promise<string>;
  /** An mdoc PID (base64url IssuerSigned) bound to the device key. */
  mdocPid(deviceJwk: JWK, person: Person): Promise<string>;
  close(): Promise<void>;
}

export async function startPidProvider(
  host = 'pid-provider.test',
  name = 'PID Provider',
): Promise<PidProvider> {
  const [pki, mdoc] = await Promise.all([issuerPki(host, name), mdocPki(name)]);
  const revoked: Record<number, number> = {};
  let statusListUri = '';
  // Signed on each request, so that a revocation is in the next list read.
  const server = http.createServer((_req, res) => {
    statusListWithX5c({
      signer: pki.leaf,
      x5c: [pki.leaf.base64, pki.intermediate.base64],
      uri: statusListUri,
      iat: Math.floor(Date.now() / 1000) - 10,
      statuses: revoked,
    }).then(
      (token) => res.writeHead(200, { 'content-type': 'application/statuslist+jwt' }).end(token),
      () => res.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  statusListUri = `http://127.0.0.1:${(server.address() as AddressInfo).port}/status/1`;
  return {
    host,
    pki,
    mdoc,
    statusListUri,
    revoke: (idx) => {
      revoked[idx] = 1;
    },
    sdJwt: (holderJwk, person, idx = 0) =>
      issueWithX5c({
        signer: pki.leaf,
        x5c: [pki.leaf.base64, pki.intermediate.base64],
        payload: {
          iss: `https://${host}`,
          vct: PID_VCT,
          iat: Math.floor(Date.now() / 1000) - 60,
          cnf: { jwk: holderJwk },
          status: { status_list: { idx, uri: statusListUri } },
          family_name: person.family_name,
          given_name: person.given_name,
          // The SD-JWT VC PID (PID Rulebook) names it `birthdate`, the mdoc `birth_date`.
          birthdate: person.birth_date,
        },
        disclosable: ['family_name', 'given_name', 'birthdate'],
      }),
    mdocPid: async (deviceJwk, person) => {
      const now = Date.now();
      const signed = await signIssuerSigned(mdoc.signingKey, {
        doctype: PID_DOCTYPE,
        namespaces: { [PID_DOCTYPE]: { ...person, birth_date: fullDate(person.birth_date) } },
        deviceKey: deviceJwk,
        signedAt: new Date(now - 60_000),
        validFrom: new Date(now - 60_000),
        validUntil: new Date(now + 30 * DAY),
      });
      return signed.credential;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
