import { generateKeyPairSync } from 'node:crypto';
import type { ResolvedOpenid4vpAuthorizationRequest } from '@openid4vc/openid4vp';
import { SessionTranscript } from '@owf/mdoc';
import { calculateJwkThumbprint, type JWK } from 'jose';
import { createClient } from '../../clients/integrator/src/index.js';
import { employeePayload } from '../support/fixtures.js';
import { mdocCrypto, presentMdoc } from '../support/mdoc-holder.js';
import { credentialEndpointAlone, SD_JWT_CREDENTIAL_ENDPOINT } from './issuance.bench.js';
import { inParallel, type Scenario, type ScenarioContext, tenantOf } from './scenario.js';
import { capturingHolder, presentationFigure, replayCaptured } from './verification.bench.js';

/**
 * The employee credential as an ISO mdoc (`EmployeeMdoc`), measured exactly as the SD-JWT VC figures
 * beside which they are printed: the credential endpoint alone, and a DeviceResponse posted to the
 * response endpoint in both response modes, each held against the minimal pipeline's mdoc routes.
 */
const NS = 'eu.credservice.employee.1';
const EMPLOYEE_MDOC = { id: 'EmployeeMdoc', payload: () => ({ [NS]: employeePayload() }) };

/** Every tenant trusts the development CA (it certifies the document and status list signers). */
async function trustDevelopmentCa(ctx: ScenarioContext) {
  const { service } = ctx;
  const ca = await service.admin.getDevelopmentCa();
  if (ca.status !== 200) throw new Error(`development CA: ${ca.status}`);
  const admin = createClient({ baseUrl: service.baseUrl, token: service.adminToken });
  for (const tenant of ctx.tenants) {
    const added = await admin.trustedIssuers.addTrustAnchor({
      params: { id: tenant.id },
      body: { certificate: ca.body.pem },
    });
    if (added.status !== 201 && added.status !== 200) throw new Error(`trust anchor: ${added.status}`);
  }
}

/** One mdoc bound to a fresh device key, issued directly (as the SD-JWT figures' credential is). */
async function issueMdoc(ctx: ScenarioContext) {
  const device = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const issued = await tenantOf(ctx, 0).integrator.createIssuance({
    body: {
      credential_configuration_id: EMPLOYEE_MDOC.id,
      payload: EMPLOYEE_MDOC.payload(),
      holder_key: device.publicKey.export({ format: 'jwk' }) as never,
    },
  });
  if (issued.status !== 201 || !issued.body.credential) throw new Error(`mdoc not issued: ${issued.status}`);
  return {
    issuerSigned: issued.body.credential,
    devicePrivateKey: device.privateKey.export({ format: 'jwk' }) as JWK,
  };
}

type Request = {
  client_id: string;
  nonce: string;
  response_uri: string;
  response_mode: string;
  client_metadata?: { jwks?: { keys: JWK[] } };
};
type Query = { id: string; claims?: { path: string[] }[] };

/** The vp_token a wallet answers the request with: one DeviceResponse over the request's transcript. */
async function deviceResponseFor(
  resolved: ResolvedOpenid4vpAuthorizationRequest,
  mdoc: Awaited<ReturnType<typeof issueMdoc>>,
) {
  const request = resolved.authorizationRequestPayload as Request;
  const encryptionKey = request.client_metadata?.jwks?.keys[0];
  const encrypted = request.response_mode === 'direct_post.jwt' && encryptionKey;
  const sessionTranscript = await SessionTranscript.forOid4Vp(
    {
      clientId: request.client_id,
      nonce: request.nonce,
      responseUri: request.response_uri,
      ...(encrypted
        ? { jwkThumbprint: Buffer.from(await calculateJwkThumbprint(encryptionKey), 'base64url') }
        : {}),
    },
    mdocCrypto,
  );
  const [query] = (resolved.dcql?.query as { credentials: Query[] } | undefined)?.credentials ?? [];
  if (!query) throw new Error('the request asks for no credential');
  const elements = query.claims?.map((c) => c.path[1] as string) ?? ['mandator', 'mandatee', 'power'];
  const deviceResponse = await presentMdoc({ ...mdoc, sessionTranscript, disclose: { [NS]: elements } });
  return { [query.id]: [Buffer.from(deviceResponse).toString('base64url')] };
}

const mdocPresentation = (mode: 'direct_post' | 'direct_post.jwt'): Scenario => ({
  name: `verifier: mdoc presentation verified (${mode}: response endpoint, DeviceResponse, status list CWT cached)`,
  // An encrypted answer costs the service its decryption and binds its key: the minimal's does too.
  matches: mode === 'direct_post.jwt' ? 'verify-mdoc-jwe' : 'verify-mdoc',
  operations: 400,
  halfPeak: mode === 'direct_post',
  besides: presentationFigure(mode),
  prepare: async (ctx, total) => {
    await trustDevelopmentCa(ctx);
    const { holder, captured } = await capturingHolder();
    const mdoc = await issueMdoc(ctx);
    await inParallel(total + 1, 8, async (i) => {
      const session = await tenantOf(ctx, i).integrator.createAuthorizationRequest({
        body: { credential_configuration_id: EMPLOYEE_MDOC.id, response_mode: mode },
      });
      if (session.status !== 201) throw new Error(`session: ${session.status}`);
      await holder.presentVpToken(session.body.authorization_request_uri, (r) => deviceResponseFor(r, mdoc));
    });
    return replayCaptured(captured);
  },
});

export const mdocIssuanceScenarios: Scenario[] = [
  {
    ...credentialEndpointAlone(
      'issuance: mdoc credential endpoint alone (proof check, status entry, MSO COSE_Sign1 signing)',
      'issue-mdoc',
      EMPLOYEE_MDOC,
    ),
    besides: SD_JWT_CREDENTIAL_ENDPOINT,
  },
];

export const mdocVerificationScenarios: Scenario[] = [
  mdocPresentation('direct_post'),
  mdocPresentation('direct_post.jwt'),
];
