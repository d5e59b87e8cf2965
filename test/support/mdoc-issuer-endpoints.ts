import { generateKeyPairSync, sign } from 'node:crypto';
import { compactVerify, decodeProtectedHeader, importJWK, type JWK, SignJWT } from 'jose';
import { signIssuerSigned } from '../../server/formats/mso-mdoc/sign-issuer-signed.js';
import { signStatusListCwt } from '../../server/formats/mso-mdoc/sign-status-list-cwt.js';
import { encodeStatusList, StatusType, writeStatus } from '../../server/status-list/status-list-encoding.js';
import type { MdocPki } from './mdoc-issuer.js';

/**
 * An mdoc Credential Issuer in memory, for the wallet's unit tests: the metadata of the service's
 * `EmployeeMdoc` configuration, a pre-authorized token, and a credential endpoint that signs with
 * the service's own signIssuerSigned for the key of the wallet's proof. Its status list is served
 * as a CWT (signStatusListCwt) to `Accept: application/statuslist+cwt`, else as a JWT, both
 * signed by a key its JWT VC Issuer Metadata publishes, as the service does.
 */
export const MDOC_ISSUER = 'https://issuer.test';
export const EMPLOYEE_DOCTYPE = 'eu.credservice.employee.1';
export const EMPLOYEE_NAMESPACE = EMPLOYEE_DOCTYPE;
export const STATUS_URI = `${MDOC_ISSUER}/status-lists/1`;
const STATUS_IDX = 5;

export const employeeElements = () => ({
  mandator: { organization: 'Acme', organizationIdentifier: 'VATES-B12345678' },
  mandatee: { firstName: 'Ana', lastName: 'Ruiz', email: 'ana.ruiz@acme.test' },
  power: [{ type: 'domain', domain: 'DOME', function: 'Onboarding', action: ['execute'] }],
});

export function mdocIssuerEndpoints(pki: MdocPki) {
  const statusKey = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const statusJwk = { ...(statusKey.publicKey.export({ format: 'jwk' }) as JWK), kid: 'status-1' };
  const statuses = new Uint8Array(16);
  const state = { jwtOnly: false, statusAccepts: [] as string[] };
  const offer = {
    credential_issuer: MDOC_ISSUER,
    credential_configuration_ids: ['EmployeeMdoc'],
    grants: { 'urn:ietf:params:oauth:grant-type:pre-authorized_code': { 'pre-authorized_code': 'pc-1' } },
  };
  const metadata = {
    credential_issuer: MDOC_ISSUER,
    credential_endpoint: `${MDOC_ISSUER}/credential`,
    nonce_endpoint: `${MDOC_ISSUER}/nonce`,
    credential_configurations_supported: {
      EmployeeMdoc: {
        format: 'mso_mdoc',
        doctype: EMPLOYEE_DOCTYPE,
        cryptographic_binding_methods_supported: ['cose_key'],
        credential_signing_alg_values_supported: [-7],
        proof_types_supported: { jwt: { proof_signing_alg_values_supported: ['ES256'] } },
      },
    },
  };

  /** The wallet's proof, checked as an issuer would: signed by its `jwk`, with our nonce. */
  async function credential(body: { proofs: { jwt: string[] } }) {
    const proof = body.proofs.jwt[0] ?? '';
    const { jwk } = decodeProtectedHeader(proof);
    const { payload } = await compactVerify(proof, await importJWK(jwk as JWK, 'ES256'));
    if (JSON.parse(new TextDecoder().decode(payload)).nonce !== 'cn-1') throw new Error('proof nonce');
    const now = new Date();
    const { credential } = await signIssuerSigned(pki.signingKey, {
      doctype: EMPLOYEE_DOCTYPE,
      namespaces: { [EMPLOYEE_NAMESPACE]: employeeElements() },
      deviceKey: jwk as JWK,
      signedAt: now,
      validFrom: now,
      validUntil: new Date(now.getTime() + 365 * 86_400_000),
      status: { idx: STATUS_IDX, uri: STATUS_URI },
    });
    return { credentials: [{ credential }] };
  }

  const signStatus = async (data: Uint8Array) =>
    new Uint8Array(sign('sha256', data, { key: statusKey.privateKey, dsaEncoding: 'ieee-p1363' }));
  async function statusList(accept: string) {
    state.statusAccepts.push(accept);
    const issuedAt = new Date();
    const lst = encodeStatusList(statuses);
    if (accept.includes('application/statuslist+cwt') && !state.jwtOnly) {
      const cwt = await signStatusListCwt(
        { kid: 'status-1', sign: signStatus },
        { subject: STATUS_URI, issuedAt, bits: 1, lst: new Uint8Array(Buffer.from(lst, 'base64url')) },
      );
      return new Response(cwt, { headers: { 'content-type': 'application/statuslist+cwt' } });
    }
    const jwt = await new SignJWT({ sub: STATUS_URI, status_list: { bits: 1, lst } })
      .setProtectedHeader({ alg: 'ES256', typ: 'statuslist+jwt', kid: 'status-1' })
      .setIssuedAt()
      .sign(statusKey.privateKey);
    return new Response(jwt, { headers: { 'content-type': 'application/statuslist+jwt' } });
  }

  const fetchImpl = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = String(input instanceof Request ? input.url : input);
    const headers = new Headers(init?.headers);
    switch (url) {
      case `${MDOC_ISSUER}/.well-known/openid-credential-issuer`:
        return Response.json(metadata);
      case `${MDOC_ISSUER}/.well-known/oauth-authorization-server`:
        return Response.json({ issuer: MDOC_ISSUER, token_endpoint: `${MDOC_ISSUER}/token` });
      case `${MDOC_ISSUER}/.well-known/jwt-vc-issuer`:
        return Response.json({ issuer: MDOC_ISSUER, jwks: { keys: [statusJwk] } });
      case `${MDOC_ISSUER}/token`:
        return Response.json({ access_token: 'at-1', token_type: 'Bearer' });
      case `${MDOC_ISSUER}/nonce`:
        return Response.json({ c_nonce: 'cn-1' });
      case `${MDOC_ISSUER}/credential`:
        return Response.json(await credential(JSON.parse(String(init?.body))));
      case STATUS_URI:
        return statusList(headers.get('accept') ?? '');
    }
    return new Response('not found', { status: 404 });
  }) as typeof fetch;

  return {
    fetch: fetchImpl,
    offerUri: `openid-credential-offer://?credential_offer=${encodeURIComponent(JSON.stringify(offer))}`,
    state,
    revoke: () => writeStatus(statuses, 1, STATUS_IDX, StatusType.INVALID),
  };
}
