import { initServer } from '@ts-rest/express';
import { adminContract } from '../../contract/admin/admin-contract.js';
import type { LocalKeyStore } from './local-key-store.js';
import type { SigningKey } from './signing-key.entity.js';

const s = initServer();

const keyView = (k: SigningKey) => ({
  kid: k.kid,
  purpose: k.purpose,
  alg: 'ES256' as const,
  status: k.status,
  public_jwk: k.publicJwk,
  created_at: k.createdAt.toISOString(),
});

export function adminKeyRoutes(keys: LocalKeyStore) {
  return {
    listSigningKeys: s.route(adminContract.listSigningKeys, async () => ({
      status: 200,
      body: { items: (await keys.list()).map(keyView) },
    })),
    rotateSigningKey: s.route(adminContract.rotateSigningKey, async ({ params }) => ({
      status: 201,
      body: keyView(await keys.rotate(params.purpose)),
    })),
  };
}
