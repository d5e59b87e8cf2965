import { webcrypto } from 'node:crypto';
import {
  addTrustedEntity,
  createLoTE,
  type ListAndSchemeInformation,
  type LoTEDocument,
  service,
  signLoTE,
  trustedEntity,
} from '@owf/eudi-lote';
import { LOTE_SERVICE_TYPES } from '../../server/trust/lists/lote/service-type-uris.js';
import { x509 } from './x5c-validation.js';

/**
 * A scheme operator made in the test: an ES256 key with a self-signed certificate (what a reader pins),
 * publishing ETSI TS 119 602 lists built with `@owf/eudi-lote`'s builders and signed with its `signLoTE`,
 * the compact JWS a distribution point serves.
 */

const DAY = 86_400_000;
const ETSI = 'http://uri.etsi.org/19602';

/**
 * What each EU profile of TS 119 602 fixes in a list, as `@owf/eudi-lote`'s profile schemas check it
 * (`validateLoTEProfile`): the list type, the status determination approach, the scheme rules, the
 * prefix of each entity's information URI (followed by its country code), and EU as the territory.
 */
const PROFILES = {
  pid: { list: 'PIDProviders', rules: 'PIDProviders', entity: 'PIDProvider' },
  wallet: { list: 'WalletProviders', rules: 'WalletProvidersList', entity: 'WalletProvider' },
  wrpac: { list: 'WRPACProviders', rules: 'WRPACProvidersList', entity: 'WRPACProvider' },
} as const;
export type LoteProfile = keyof typeof PROFILES;

/** The service types each profile allows, for callers that want the profile's own. */
export const PROFILE_SERVICE_TYPES = {
  pid: { issuance: LOTE_SERVICE_TYPES.pidIssuance, revocation: LOTE_SERVICE_TYPES.pidRevocation },
  wallet: {
    issuance: LOTE_SERVICE_TYPES.walletSolutionIssuance,
    revocation: LOTE_SERVICE_TYPES.walletSolutionRevocation,
  },
  wrpac: { issuance: LOTE_SERVICE_TYPES.wrpacIssuance, revocation: LOTE_SERVICE_TYPES.wrpacRevocation },
} as const satisfies Record<LoteProfile, unknown>;

export interface LoteEntityInput {
  name: string;
  services: { type: string; certificates: string[]; status?: string }[];
}

export interface LotePointerInput {
  url: string;
  signerCertificates: string[];
  /** `LoTEType` of the pointed list; an EU PID providers list unless said. */
  type?: string;
  territory?: string;
  mimeType?: string;
}

export interface LoteSignOptions {
  nextUpdate?: Date;
  issuedAt?: Date;
  sequence?: number;
  /** An EU profile (TS 119 602): the list then passes `validateLoTEProfile` for it. */
  profile?: LoteProfile;
  /** Scheme territory of a list without a profile (a profile's is EU). */
  territory?: string;
  pointers?: LotePointerInput[];
}

export interface LoteOperator {
  /** The signing certificate, standard base64 DER: what a reader pins. */
  certificate: string;
  /** A list of these entities, signed: the compact JWS as served. */
  sign(entities: LoteEntityInput[], options?: LoteSignOptions): Promise<string>;
  /** The unsigned list document `sign` would sign. */
  document(entities: LoteEntityInput[], options?: LoteSignOptions): LoTEDocument;
  /** Any payload signed by this operator, with extra protected header parameters: for refusal tests. */
  signPayload(payload: unknown, header?: Record<string, unknown>): Promise<string>;
}

function entityOf(input: LoteEntityInput, profile: LoteProfile | undefined) {
  const builder = trustedEntity()
    .name(input.name)
    .postalAddress({
      StreetAddress: 'Test Street 1',
      Locality: 'Testville',
      PostalCode: '1000',
      Country: 'EU',
    })
    .email(`lists@${input.name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}.example`);
  if (profile) builder.infoUri(`${ETSI}/ListOfTrustedEntities/${PROFILES[profile].entity}/EU`);
  for (const s of input.services) {
    const svc = service()
      .name(`${input.name} ${s.type.split('/').slice(-2).join(' ')}`)
      .type(s.type);
    // The EU profiles carry no service status: the list itself is the status (TS 119 602).
    if (s.status && !profile) svc.status(s.status);
    for (const certificate of s.certificates) svc.addCertificate(certificate);
    builder.addService(svc.build());
  }
  return builder.build();
}

function schemeOf(name: string, options: LoteSignOptions): ListAndSchemeInformation {
  const issuedAt = options.issuedAt ?? new Date(Date.now() - 60_000);
  const scheme: ListAndSchemeInformation = {
    LoTEVersionIdentifier: 1,
    LoTESequenceNumber: options.sequence ?? 1,
    SchemeOperatorName: [{ lang: 'en', value: name }],
    SchemeTerritory: options.territory ?? 'EU',
    ListIssueDateTime: issuedAt.toISOString(),
    NextUpdate: (options.nextUpdate ?? new Date(issuedAt.getTime() + 30 * DAY)).toISOString(),
  };
  if (options.profile) {
    const p = PROFILES[options.profile];
    scheme.LoTEType = `${ETSI}/LoTEType/EU${p.list}List`;
    scheme.StatusDeterminationApproach = `${ETSI}/${p.list}List/StatusDetn/EU`;
    scheme.SchemeTypeCommunityRules = [{ lang: 'en', uriValue: `${ETSI}/${p.rules}/schemerules/EU` }];
    scheme.SchemeTerritory = 'EU';
  }
  if (options.pointers?.length) {
    scheme.PointersToOtherLoTE = options.pointers.map((p) => ({
      LoTELocation: p.url,
      ServiceDigitalIdentities: [{ X509Certificates: p.signerCertificates.map((val) => ({ val })) }],
      LoTEQualifiers: [
        {
          LoTEType: p.type ?? `${ETSI}/LoTEType/EUPIDProvidersList`,
          SchemeOperatorName: [{ lang: 'en', value: `Operator of ${p.url}` }],
          ...(p.territory ? { SchemeTerritory: p.territory } : {}),
          MimeType: p.mimeType ?? 'application/jwt',
        },
      ],
    }));
  }
  return scheme;
}

export async function makeLoteOperator(name: string): Promise<LoteOperator> {
  const keys = (await webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, [
    'sign',
    'verify',
  ])) as webcrypto.CryptoKeyPair;
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    name: `CN=${name} LoTE signer, O=${name}, C=EU`,
    notBefore: new Date(Date.now() - DAY),
    notAfter: new Date(Date.now() + 365 * DAY),
    signingAlgorithm: { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' },
    keys,
    extensions: [new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true)],
  });
  const certificate = Buffer.from(cert.rawData).toString('base64');
  // signLoTE hands the signer the JWS signing input and appends what it returns as the signature.
  const signer = async (input: string) =>
    Buffer.from(
      await webcrypto.subtle.sign(
        { name: 'ECDSA', hash: 'SHA-256' },
        keys.privateKey,
        new TextEncoder().encode(input),
      ),
    ).toString('base64url');

  const document: LoteOperator['document'] = (entities, options = {}) =>
    entities.reduce(
      (lote, input) => addTrustedEntity(lote, entityOf(input, options.profile)),
      createLoTE(schemeOf(name, options)),
    );

  return {
    certificate,
    document,
    async sign(entities, options = {}) {
      const lote = document(entities, options);
      const signed = await signLoTE({
        lote,
        keyId: `${name} LoTE signer`,
        certificates: [cert.toString('pem')],
        signer,
      });
      return signed.jws;
    },
    async signPayload(payload, header = {}) {
      // Built by hand rather than with jose, which rightly refuses to sign headers a reader must refuse.
      const segment = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
      const input = `${segment({ alg: 'ES256', x5c: [certificate], ...header })}.${segment(payload)}`;
      return `${input}.${await signer(input)}`;
    },
  };
}
