import type { CredentialConfiguration } from '../../credential-configurations/credential-configuration.entity.js';

/** `vct` of a configuration: its own, or the issuer's type URL `{issuer}/credential-types/{id}`. */
export const vctOf = (c: Pick<CredentialConfiguration, 'id' | 'vct'>, issuerUrl: string) =>
  c.vct ?? `${issuerUrl}/credential-types/${encodeURIComponent(c.id)}`;
