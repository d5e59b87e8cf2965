import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, createIntegratorClient } from '../../clients/integrator/src/index.js';
import { pemOf } from '../../server/keys/x509-certificate.js';
import {
  SERVICE_TYPE_QEAA,
  TSL_TYPE_EU_LOTL,
} from '../../server/trust/lists/trusted-list/service-type-uris.js';
import { type IssuerPki, issuerPki, issueWithX5c } from '../support/issuer-x509.js';
import { acmeTenant, startTestService, type TestService } from '../support/test-service.js';
import { ThirdPartyHolder } from '../support/third-party-holder.js';
import {
  type ListOperator,
  listOperator,
  signList,
  trustedListXml,
} from '../support/trusted-list-operator.js';

/**
 * The EU way: a list of trusted lists (ETSI TS 119 612, XAdES) points to a member state's trusted
 * list, each signed by its own operator. The tenant pins the LOTL's signer only; the member state
 * list is validated against the signer the LOTL names for it, and its granted QEAA providers vouch.
 */
const GRANTED = 'http://uri.etsi.org/TrstSvc/TrustedList/Svcstatus/granted';
const WITHDRAWN = 'http://uri.etsi.org/TrstSvc/TrustedList/Svcstatus/withdrawn';
const VCT = 'https://qeaa.example/diploma';
const DAY = 86_400_000;

let t: TestService;
let tenantId: string;
let integrator: ReturnType<typeof createIntegratorClient>;
let lotlOperator: ListOperator;
let stateOperator: ListOperator;
let qeaa: IssuerPki;
let withdrawn: IssuerPki;
const served = new Map<string, string>();
let server: http.Server;
let base: string;
const dates = () => ({
  issuedAt: new Date(Date.now() - 60_000),
  nextUpdate: new Date(Date.now() + 30 * DAY),
});

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const body = served.get(req.url ?? '');
    if (body === undefined) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/vnd.etsi.tsl+xml' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  [t, lotlOperator, stateOperator, qeaa, withdrawn] = await Promise.all([
    startTestService(),
    listOperator('ES256', 'EU LOTL Operator'),
    listOperator('RS256', 'ZZ TL Operator'),
    issuerPki('qeaa.example', 'QEAA Provider'),
    issuerPki('qeaa.example', 'Withdrawn Provider'),
  ]);
  const created = await t.admin.createTenant({ body: acmeTenant() });
  if (created.status !== 201) throw new Error('no tenant');
  tenantId = created.body.id;
  integrator = createIntegratorClient({ baseUrl: t.baseUrl, token: created.body.integrator_token });
  served.set(
    '/lotl.xml',
    await signList(
      trustedListXml({
        type: TSL_TYPE_EU_LOTL,
        territory: 'EU',
        ...dates(),
        pointers: [{ url: `${base}/zz.xml`, territory: 'ZZ', certs: [stateOperator.certificate] }],
      }),
      lotlOperator,
    ),
  );
  await publishStateList(stateOperator);
});
afterAll(async () => {
  await t?.stop();
  await new Promise((resolve) => server?.close(resolve));
});

async function publishStateList(signer: ListOperator) {
  const provider = (name: string, pki: IssuerPki, status: string) => ({
    names: { en: name },
    services: [{ type: SERVICE_TYPE_QEAA, status, cert: pki.root.base64 }],
  });
  const xml = trustedListXml({
    territory: 'ZZ',
    ...dates(),
    providers: [
      provider('QEAA Provider', qeaa, GRANTED),
      provider('Withdrawn Provider', withdrawn, WITHDRAWN),
    ],
  });
  served.set('/zz.xml', await signList(xml, signer));
}

async function presentDiploma(ca: IssuerPki) {
  const session = await integrator.createAuthorizationRequest({
    body: {
      dcql_query: {
        credentials: [
          { id: 'd', format: 'dc+sd-jwt', meta: { vct_values: [VCT] }, claims: [{ path: ['degree'] }] },
        ],
      },
    },
  });
  if (session.status !== 201) throw new Error('no session');
  const holder = await ThirdPartyHolder.create();
  const credential = await issueWithX5c({
    signer: ca.leaf,
    x5c: [ca.leaf.base64, ca.intermediate.base64],
    payload: {
      iss: 'https://qeaa.example',
      vct: VCT,
      iat: Math.floor(Date.now() / 1000) - 60,
      cnf: { jwk: holder.holderJwk },
      degree: 'MSc',
    },
    disclosable: ['degree'],
  });
  await holder.present(session.body.authorization_request_uri, [credential]);
  return (await integrator.getAuthorizationRequest({ params: { id: session.body.session_id } })).body;
}

describe('a LOTL trust source', () => {
  let sourceId: string;
  const sources = () => createClient({ baseUrl: t.baseUrl, token: t.adminToken }).trustSources;

  it('follows the LOTL to the member state list and trusts its granted QEAA providers', async () => {
    const added = await sources().addTrustSource({
      params: { id: tenantId },
      body: {
        type: 'lotl',
        url: `${base}/lotl.xml`,
        signer_certificates: [pemOf(lotlOperator.certificate)],
        service_types: ['qeaa_provider'],
      },
    });
    if (added.status !== 201) throw new Error(JSON.stringify(added.body));
    sourceId = added.body.id;
    expect(added.body.status).toMatchObject({ state: 'ok', entities: 1, error: null });
    expect(await presentDiploma(qeaa)).toMatchObject({
      status: 'verified',
      claims: { degree: 'MSc' },
      trust: {
        method: 'trusted_list',
        source: sourceId,
        entity: 'QEAA Provider',
        service_type: 'qeaa_provider',
      },
    });
  });

  it('does not trust a provider whose service is withdrawn', async () => {
    expect(await presentDiploma(withdrawn)).toMatchObject({
      status: 'failed',
      reason: 'certificate_untrusted',
    });
  });

  it('keeps the last good copy of a member state list signed by someone the LOTL does not name, and says so', async () => {
    await publishStateList(await listOperator('ES256', 'Impostor'));
    const refreshed = await sources().refreshTrustSource({ params: { id: tenantId, sourceId } });
    expect(refreshed).toMatchObject({ status: 200, body: { state: 'stale', entities: 1 } });
    expect(refreshed.status === 200 && refreshed.body.error).toMatch(/ZZ: .*not pinned|ZZ: .*signer/i);
    expect(await presentDiploma(qeaa)).toMatchObject({
      status: 'verified',
      trust: { method: 'trusted_list' },
    });
  });
});
