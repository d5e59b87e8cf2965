import type { CredentialOffer } from './credential-offer.js';
import { preAuthorizedGrant } from './credential-offer.js';
import { WalletError } from './errors.js';
import { getJson, type HttpOptions, stringField } from './http.js';
import { wellKnownUrl } from './well-known.js';

/** The members of a credential configuration this wallet reads (OID4VCI §12.2.4, Appendix A.2 and A.3). */
export interface CredentialConfiguration {
  format: string;
  /** The SD-JWT VC type (`dc+sd-jwt`). */
  vct?: string;
  /** The mdoc document type (`mso_mdoc`, OID4VCI Appendix A.2.2). */
  doctype?: string;
  cryptographic_binding_methods_supported?: string[];
  proof_types_supported?: { jwt?: { proof_signing_alg_values_supported: string[] }; [type: string]: unknown };
  [other: string]: unknown;
}

export interface CredentialIssuerMetadata {
  credential_issuer: string;
  authorization_servers?: string[];
  credential_endpoint: string;
  nonce_endpoint?: string;
  notification_endpoint?: string;
  deferred_credential_endpoint?: string;
  batch_credential_issuance?: { batch_size: number };
  credential_configurations_supported: Record<string, CredentialConfiguration>;
  [other: string]: unknown;
}

export interface AuthorizationServerMetadata {
  issuer: string;
  token_endpoint: string;
  'pre-authorized_grant_anonymous_access_supported'?: boolean;
  [other: string]: unknown;
}

/** Issuer metadata from its well-known location; its `credential_issuer` must match exactly (§12.2.4). */
export async function fetchCredentialIssuerMetadata(
  credentialIssuer: string,
  http: HttpOptions = {},
): Promise<CredentialIssuerMetadata> {
  const url = wellKnownUrl(credentialIssuer, 'openid-credential-issuer');
  const doc = await getJson(url, 'credential issuer metadata', http);
  if (doc.credential_issuer !== credentialIssuer)
    throw new WalletError(`issuer metadata names ${String(doc.credential_issuer)}, not ${credentialIssuer}`);
  stringField(doc, 'credential_endpoint', 'credential issuer metadata');
  if (!doc.credential_configurations_supported || typeof doc.credential_configurations_supported !== 'object')
    throw new WalletError('credential issuer metadata lacks credential_configurations_supported');
  return doc as CredentialIssuerMetadata;
}

/** RFC 8414 metadata of an authorization server; its `issuer` must equal the identifier (§3.3). */
export async function fetchAuthorizationServerMetadata(
  authorizationServer: string,
  http: HttpOptions = {},
): Promise<AuthorizationServerMetadata> {
  const url = wellKnownUrl(authorizationServer, 'oauth-authorization-server');
  const doc = await getJson(url, 'authorization server metadata', http);
  if (doc.issuer !== authorizationServer)
    throw new WalletError(
      `authorization server metadata names ${String(doc.issuer)}, not ${authorizationServer}`,
    );
  stringField(doc, 'token_endpoint', 'authorization server metadata');
  return doc as AuthorizationServerMetadata;
}

/**
 * Which authorization server handles the offer's pre-authorized code: the credential issuer itself
 * when the metadata names none, the offer's `authorization_server` hint when there are several (it
 * must be one of them), else the only one (OID4VCI §4.1.1, §12.2.4).
 */
export function chooseAuthorizationServer(
  offer: CredentialOffer,
  metadata: CredentialIssuerMetadata,
): string {
  const servers = metadata.authorization_servers;
  if (!servers || servers.length === 0) return metadata.credential_issuer;
  const hint = preAuthorizedGrant(offer).authorization_server;
  if (hint) {
    if (!servers.includes(hint))
      throw new WalletError(`offer names authorization server ${hint}, not in metadata`);
    return hint;
  }
  if (servers.length > 1) throw new WalletError('several authorization servers and the offer names none');
  return servers[0] as string;
}

export interface DiscoveredIssuer {
  issuer: CredentialIssuerMetadata;
  authorizationServer: AuthorizationServerMetadata;
}

/** Everything the wallet needs to know about where to go, found from the offer alone. */
export async function discoverIssuer(
  offer: CredentialOffer,
  http: HttpOptions = {},
): Promise<DiscoveredIssuer> {
  const issuer = await fetchCredentialIssuerMetadata(offer.credential_issuer, http);
  for (const id of offer.credential_configuration_ids)
    if (!issuer.credential_configurations_supported[id])
      throw new WalletError(`offered configuration ${id} is not in the issuer metadata`);
  const authorizationServer = await fetchAuthorizationServerMetadata(
    chooseAuthorizationServer(offer, issuer),
    http,
  );
  return { issuer, authorizationServer };
}
