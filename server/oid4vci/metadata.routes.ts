import { initServer } from '@ts-rest/express';
import type { Request } from 'express';
import { oid4vciContract } from '../../contract/oid4vci/oid4vci-contract.js';
import type { AppContext } from '../app-context.js';
import { findConfiguration } from '../credential-configurations/credential-configuration-registry.js';
import { issuingFormat } from '../formats/credential-formats.js';
import { authorizationServerMetadata } from '../oidc/openid-configuration.js';
import { servedRoles } from '../oidc/served-roles.js';
import { credentialIssuerMetadata } from './issuer-metadata.js';
import { walletSecurity } from './wallet-security.js';

const s = initServer();

const notHere = (what: string) => ({
  status: 404 as const,
  body: { error: 'not_found', error_description: `no ${what} at this host name` },
});

/**
 * Discovery documents: issuer metadata, AS metadata, jwt-vc-issuer keys, type metadata. With the
 * issuer and the verifier on two host names, the issuer's documents exist only at the issuer's.
 */
export function metadataRoutes(ctx: Pick<AppContext, 'config' | 'signer'>) {
  const { issuerUrl } = ctx.config;
  const at = (req: Request) => servedRoles(ctx.config, req.hostname);
  return {
    credentialIssuerMetadata: s.route(oid4vciContract.credentialIssuerMetadata, async ({ req }) => {
      if (!at(req)?.issuer) return notHere('credential issuer');
      return { status: 200, body: await credentialIssuerMetadata(req.em, ctx.config) };
    }),
    // The same document as /.well-known/openid-configuration (server/oidc/oidc.endpoints.ts).
    authorizationServerMetadata: s.route(oid4vciContract.authorizationServerMetadata, async ({ req }) => {
      const roles = at(req);
      if (!roles) return notHere('authorization server');
      return { status: 200, body: authorizationServerMetadata(roles, walletSecurity(ctx.config)) };
    }),
    jwtVcIssuerMetadata: s.route(oid4vciContract.jwtVcIssuerMetadata, async ({ req }) => {
      if (!at(req)?.issuer) return notHere('credential issuer');
      return {
        status: 200,
        // Status list tokens are signed on the issuer's behalf too, so verifiers find both here.
        body: {
          issuer: issuerUrl,
          jwks: {
            keys: [
              ...(await ctx.signer.publicJwks('issuer')),
              ...(await ctx.signer.publicJwks('status-list')),
            ],
          },
        },
      };
    }),
    typeMetadata: s.route(oid4vciContract.typeMetadata, async ({ params, req }) => {
      const configuration = await findConfiguration(req.em, params.id);
      const typeMetadata = configuration && issuingFormat(configuration).typeMetadata;
      if (!configuration || !typeMetadata)
        return { status: 404, body: { error: 'not_found', error_description: 'unknown credential type' } };
      return { status: 200, body: typeMetadata(configuration, issuerUrl) as never };
    }),
  };
}
