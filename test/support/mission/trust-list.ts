import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import type { createClient, createIntegratorClient } from '../../../clients/integrator/src/index.js';
import { pemOf } from '../../../server/keys/x509-certificate.js';
import { LOTE_SERVICE_TYPES } from '../../../server/trust/lists/lote/service-type-uris.js';
import { type IssuerPki, issuerPki, issueWithX5c } from '../issuer-x509.js';
import { makeLoteOperator } from '../lote-operator.js';
import { ThirdPartyHolder } from '../third-party-holder.js';

type Service = ReturnType<typeof createClient>;
type Integrator = ReturnType<typeof createIntegratorClient>;

const HOST = 'pid.member-state.test';
/** A PID-like type: the EUDI PID's SD-JWT VC type. */
export const PID_VCT = 'urn:eudi:pid:1';

/** The tenant trusts the LoTE at `url`, signed by `operator`, for what `trusted` says. */
export const addLoteSource = (
  service: Service,
  tenantId: string,
  url: string,
  operator: { certificate: string },
  trusted: { service_types: ('pid_provider' | 'wallet_provider')[]; vct_values?: string[] },
) =>
  service.trustSources.addTrustSource({
    params: { id: tenantId },
    body: { type: 'lote', url, signer_certificates: [pemOf(operator.certificate)], ...trusted },
  });

/** A list distribution point made in the test: serves whatever was last published, as a JWS. */
export async function distributionPoint() {
  let body = '';
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/jwt' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/pid-providers.jwt`,
    publish: (jws: string) => {
      body = jws;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const pid = async (holder: ThirdPartyHolder, ca: IssuerPki) =>
  issueWithX5c({
    signer: ca.leaf,
    x5c: [ca.leaf.base64, ca.intermediate.base64],
    payload: {
      iss: `https://${HOST}`,
      vct: PID_VCT,
      iat: Math.floor(Date.now() / 1000) - 60,
      cnf: { jwk: holder.holderJwk },
      given_name: 'Ana',
      family_name: 'Silva',
    },
    disclosable: ['given_name', 'family_name'],
  });

async function presentPid(integrator: Integrator, ca: IssuerPki) {
  const session = await integrator.createAuthorizationRequest({
    body: {
      dcql_query: {
        credentials: [
          {
            id: 'pid',
            format: 'dc+sd-jwt',
            meta: { vct_values: [PID_VCT] },
            claims: [{ path: ['given_name'] }],
          },
        ],
      },
    },
  });
  if (session.status !== 201) throw new Error(`session: ${session.status}`);
  const holder = await ThirdPartyHolder.create();
  await holder.present(session.body.authorization_request_uri, [await pid(holder, ca)]);
  return (await integrator.getAuthorizationRequest({ params: { id: session.body.session_id } })).body;
}

/**
 * A member state's PID providers list (ETSI TS 119 602, signed by a test scheme operator) trusted by
 * the tenant for `pid_provider` and the PID type: a PID-like SD-JWT VC of a listed provider verifies
 * with the list as its trust path; once the provider is dropped from the list and the source
 * refreshed, the same credential is refused.
 */
export async function trustListLifecycle(service: Service, integrator: Integrator, tenantId: string) {
  const [operator, provider, point] = await Promise.all([
    makeLoteOperator('Member State PID Scheme'),
    issuerPki(HOST, 'PID Provider'),
    distributionPoint(),
  ]);
  try {
    const listed = [
      {
        name: 'PID Provider',
        services: [{ type: LOTE_SERVICE_TYPES.pidIssuance, certificates: [provider.root.base64] }],
      },
    ];
    point.publish(await operator.sign(listed, { profile: 'pid', sequence: 1 }));
    const added = await addLoteSource(service, tenantId, point.url, operator, {
      service_types: ['pid_provider'],
      vct_values: [PID_VCT],
    });
    if (added.status !== 201) throw new Error(`trust source: ${added.status} ${JSON.stringify(added.body)}`);
    expect(added.body.status).toMatchObject({ state: 'ok', entities: 1, error: null });

    expect(await presentPid(integrator, provider)).toMatchObject({
      status: 'verified',
      claims: { given_name: 'Ana' },
      trust: {
        method: 'trusted_list',
        source: added.body.id,
        entity: 'PID Provider',
        service_type: 'pid_provider',
      },
    });

    point.publish(await operator.sign([], { profile: 'pid', sequence: 2 }));
    const refreshed = await service.trustSources.refreshTrustSource({
      params: { id: tenantId, sourceId: added.body.id },
    });
    expect(refreshed).toMatchObject({ status: 200, body: { state: 'ok', entities: 0 } });
    // Nothing of the tenant's trust leads to the provider's chain any more: with anchors of its own the
    // tenant says the chain is untrusted, without any its issuer is simply unknown.
    const refused = {
      status: 'failed',
      reason: expect.stringMatching(/^(certificate_untrusted|untrusted_issuer)$/),
    };
    expect(await presentPid(integrator, provider)).toMatchObject(refused);

    // A list signed by anyone but the pinned operator leaves the last good copy in force, and says why.
    point.publish(await (await makeLoteOperator('Impostor')).sign(listed, { profile: 'pid', sequence: 3 }));
    const forged = await service.trustSources.refreshTrustSource({
      params: { id: tenantId, sourceId: added.body.id },
    });
    expect(forged).toMatchObject({ status: 200, body: { state: 'stale', entities: 0 } });
    expect(forged.status === 200 && forged.body.error).toContain('signer_not_pinned');
    expect(await presentPid(integrator, provider)).toMatchObject(refused);

    const removed = await service.trustSources.deleteTrustSource({
      params: { id: tenantId, sourceId: added.body.id },
    });
    expect(removed.status).toBe(204);
  } finally {
    await point.close();
  }
}
