import type { RegistrationCertificateRole } from '../../contract/admin/registration-certificate.js';
import { refuse } from './read-registration-certificate.js';

/** Who a registration certificate says it registers, read from its payload. */
export interface RegisteredParty {
  /** Its legal name and trade name (`name`), as far as the certificate gives them. */
  names: string[];
  /** Identifiers of the registered party, e.g. `VATES-B12345678` (ETSI EN 319 412-1 semantics). */
  identifiers: string[];
  /** Identifiers of an intermediary acting for it (`act.sub.id`), whose access certificate it uses. */
  intermediaries: string[];
  entitlements: string[];
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const strings = (v: unknown): string[] =>
  (Array.isArray(v) ? v : [v]).filter((s): s is string => typeof s === 'string' && s.trim() !== '');

/** `id` as the versions write it: a string, `{identifier}`, or an array of either. */
const identifiersIn = (id: unknown): string[] =>
  (Array.isArray(id) ? id : [id]).flatMap((entry) => strings(isObject(entry) ? entry.identifier : entry));

/**
 * The registered party. TS 119 475 V1.1.1 (Table 7) writes `sub` as an object: `legal_name`, or
 * `given_name` and `family_name`, and `id` ({type, identifier} entries); later versions and the EUDI
 * test registrars write the identifier as the `sub` string and the legal name as `sub_ln`. Both are
 * read. A certificate without `sub` names nobody, and is refused.
 */
export function registeredParty(payload: Json): RegisteredParty {
  const { sub } = payload;
  let names: string[];
  let identifiers: string[];
  if (isObject(sub)) {
    const person = [sub.given_name, sub.family_name].filter((n) => typeof n === 'string').join(' ');
    names = [...strings(sub.legal_name), ...strings(person)];
    identifiers = identifiersIn(sub.id);
  } else if (typeof sub === 'string' && sub.trim() !== '') {
    names = strings(payload.sub_ln);
    identifiers = [sub];
  } else throw refuse('it names no registered party (sub)');
  const act = isObject(payload.act) && isObject(payload.act.sub) ? payload.act.sub : undefined;
  return {
    names: [...new Set([...names, ...strings(payload.name)])],
    identifiers,
    intermediaries: identifiersIn(act?.id),
    entitlements: strings(payload.entitlements),
  };
}

/** The view's `subject`: names first, identifiers in brackets. */
export const describeParty = (p: RegisteredParty) =>
  [p.names.join(', ') || 'unnamed', ...(p.identifiers.length ? [`(${p.identifiers.join(', ')})`] : [])].join(
    ' ',
  );

/** ETSI TS 119 475 Annex A entitlements, each as URI or OID (0.4.0.19475.1.n). */
const entitlement = (name: string, n: number) => [
  `https://uri.etsi.org/19475/Entitlement/${name}`,
  `0.4.0.19475.1.${n}`,
];

/**
 * What each role needs to be registered as: a relying party that asks wallets for attributes is a
 * Service_Provider; a credential issuer provides (Q)EAA or PID.
 */
const NEEDED: Record<RegistrationCertificateRole, { what: string; values: string[] }> = {
  verifier: { what: 'Service_Provider', values: entitlement('Service_Provider', 1) },
  issuer: {
    what: 'QEAA_Provider, Non_Q_EAA_Provider, PUB_EAA_Provider or PID_Provider',
    values: [
      ...entitlement('QEAA_Provider', 2),
      ...entitlement('Non_Q_EAA_Provider', 3),
      ...entitlement('PUB_EAA_Provider', 4),
      ...entitlement('PID_Provider', 5),
    ],
  },
};

/**
 * Refuses a certificate whose entitlements leave out the role it is imported for (the issuer's
 * certificate imported as a verifier's, say). Without entitlements there is nothing to compare.
 */
export function checkEntitlements(role: RegistrationCertificateRole, party: RegisteredParty): void {
  const needed = NEEDED[role];
  if (party.entitlements.length === 0 || party.entitlements.some((e) => needed.values.includes(e))) return;
  throw refuse(
    `its entitlements (${party.entitlements.join(', ')}) do not make it a ${role}'s: that needs ${needed.what} (ETSI TS 119 475 Annex A)`,
  );
}
