import { initServer } from '@ts-rest/express';
import { adminContract } from '../../contract/admin/admin-contract.js';
import type { KeyStore } from './key-store.js';
import type { SigningKey } from './signing-key.entity.js';
import { certificateOf } from './x509-support.js';

const s = initServer();

const keyView = (k: SigningKey) => ({
  kid: k.kid,
  purpose: k.purpose,
  alg: 'ES256' as const,
  status: k.status,
  public_jwk: k.publicJwk,
  created_at: k.createdAt.toISOString(),
  certificate_source: k.certificateSource ?? null,
  certificate_chain: k.certificateChain ?? [],
  key_store: k.keyStore,
  token_key: k.tokenKey ?? null,
  retired_at: k.retiredAt?.toISOString() ?? null,
  destroyed_at: k.destroyedAt?.toISOString() ?? null,
});

export function adminKeyRoutes(keys: KeyStore) {
  return {
    listSigningKeys: s.route(adminContract.listSigningKeys, async () => ({
      status: 200,
      body: { items: (await keys.list()).map(keyView) },
    })),
    rotateSigningKey: s.route(adminContract.rotateSigningKey, async ({ params }) => ({
      status: 201,
      body: keyView(await keys.rotate(params.purpose)),
    })),
    rotateAllSigningKeys: s.route(adminContract.rotateAllSigningKeys, async () => ({
      status: 201,
      body: { items: (await keys.rotateAll()).map(keyView) },
    })),
    retireSigningKey: s.route(adminContract.retireSigningKey, async ({ params }) => ({
      status: 200,
      body: keyView(await keys.retire(params.kid)),
    })),
    destroySigningKey: s.route(adminContract.destroySigningKey, async ({ params }) => ({
      status: 200,
      body: keyView(await keys.destroy(params.kid)),
    })),
    listSigningKeyEvents: s.route(adminContract.listSigningKeyEvents, async ({ query }) => ({
      status: 200,
      body: {
        items: (await keys.events(query.kid)).map((e) => ({
          id: e.id,
          kid: e.kid,
          purpose: e.purpose,
          action: e.action,
          actor: e.actor,
          details: e.details,
          created_at: e.createdAt.toISOString(),
        })),
      },
    })),
    getDevelopmentCa: s.route(adminContract.getDevelopmentCa, async () => {
      const root = certificateOf(await keys.developmentRoot());
      return {
        status: 200,
        body: {
          subject: root.subject,
          not_after: root.notAfter.toISOString(),
          certificate: Buffer.from(root.rawData).toString('base64'),
          pem: root.toString('pem'),
        },
      };
    }),
    createCertificateSigningRequest: s.route(
      adminContract.createCertificateSigningRequest,
      async ({ params, body }) => {
        // Host names given replace the default host, whichever SAN type it had.
        const hosts = body.dns_names || body.ip_addresses;
        const { kid, purpose, names, csr } = await keys.certificateSigningRequest(params.purpose, {
          ...(body.subject ? { subject: body.subject } : {}),
          ...(hosts ? { dnsNames: body.dns_names ?? [], ipAddresses: body.ip_addresses ?? [] } : {}),
          ...(body.uris ? { uris: body.uris } : {}),
        });
        return {
          status: 200,
          body: {
            kid,
            purpose,
            subject: names.subject,
            dns_names: names.dnsNames,
            ip_addresses: names.ipAddresses,
            uris: names.uris,
            csr,
          },
        };
      },
    ),
    importCertificateChain: s.route(adminContract.importCertificateChain, async ({ params, body }) => ({
      status: 200,
      body: keyView(await keys.importCertificateChain(params.kid, body.certificate_chain)),
    })),
  };
}
