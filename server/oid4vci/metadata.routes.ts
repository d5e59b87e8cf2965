import { initServer } from '@ts-rest/express';
import { oid4vciContract } from '../../contract/oid4vci/oid4vci-contract.js';
import type { AppContext } from '../app-context.js';
import { findConfiguration } from '../credential-configurations/credential-configuration-registry.js';
import { typeMetadata } from '../credential-configurations/type-metadata.js';
import { authorizationServerMetadata, credentialIssuerMetadata } from './issuer-metadata.js';

const s = initServer();

/** Discovery documents: issuer metadata, AS metadata, jwt-vc-issuer keys, type metadata. */
export function metadataRoutes(ctx: Pick<AppContext, 'config' | 'signer'>) {
  const { issuerUrl } = ctx.config;
  return {
    credentialIssuerMetadata: s.route(oid4vciContract.credentialIssuerMetadata, async ({ req }) => ({
      status: 200,
      body: await credentialIssuerMetadata(req.em, ctx.config),
    })),
    authorizationServerMetadata: s.route(oid4vciContract.authorizationServerMetadata, async () => ({
      status: 200,
      body: authorizationServerMetadata(issuerUrl),
    })),
    jwtVcIssuerMetadata: s.route(oid4vciContract.jwtVcIssuerMetadata, async () => ({
      status: 200,
      // Status list tokens are signed on the issuer's behalf too, so verifiers find both here.
      body: {
        issuer: issuerUrl,
        jwks: {
          keys: [...(await ctx.signer.publicJwks('issuer')), ...(await ctx.signer.publicJwks('status-list'))],
        },
      },
    })),
    typeMetadata: s.route(oid4vciContract.typeMetadata, async ({ params, req }) => {
      const configuration = await findConfiguration(req.em, params.id);
      if (!configuration)
        return { status: 404, body: { error: 'not_found', error_description: 'unknown credential type' } };
      return { status: 200, body: typeMetadata(configuration, issuerUrl) };
    }),
  };
}
