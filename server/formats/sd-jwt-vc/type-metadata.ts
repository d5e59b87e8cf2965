import type { CredentialConfiguration } from '../../credential-configurations/credential-configuration.entity.js';
import { vctOf } from './vct.js';

/** SD-JWT VC type metadata (section 6) of a configuration, served at its vct URL. */
export function typeMetadata(c: CredentialConfiguration, issuerUrl: string) {
  const [first] = c.display;
  return {
    vct: vctOf(c, issuerUrl),
    ...(first ? { name: first.name, ...(first.description ? { description: first.description } : {}) } : {}),
    display: c.display.map((d) => ({
      locale: d.locale,
      name: d.name,
      ...(d.description ? { description: d.description } : {}),
      ...(d.background_color || d.text_color
        ? { rendering: { simple: { background_color: d.background_color, text_color: d.text_color } } }
        : {}),
    })),
    claims: c.claims,
  };
}
