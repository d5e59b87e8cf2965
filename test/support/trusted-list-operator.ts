import { webcrypto } from 'node:crypto';
import { DOMParser, type Node, XMLSerializer } from '@xmldom/xmldom';
import { SignedXml } from 'xadesjs';
import '../../server/trust/lists/trusted-list/xades-engine.js';
import { x509 } from './x5c-validation.js';

/**
 * A test trusted list operator: a key and a self-signed certificate, and the TS 119 612 lists it
 * writes and signs with xadesjs (enveloped XAdES, as a real scheme operator's signing tool does).
 * Independent of the reader except for sharing its crypto engine set-up.
 */

const TSL = 'http://uri.etsi.org/02231/v2#';
const ADDITIONAL = 'http://uri.etsi.org/02231/v2/additionaltypes#';

export type OperatorAlgorithm = 'ES256' | 'ES384' | 'RS256' | 'RS384' | 'RS512' | 'PS256';

const KEYS: Record<OperatorAlgorithm, webcrypto.RsaHashedKeyGenParams | webcrypto.EcKeyGenParams> = {
  ES256: { name: 'ECDSA', namedCurve: 'P-256' } as webcrypto.EcKeyGenParams,
  ES384: { name: 'ECDSA', namedCurve: 'P-384' } as webcrypto.EcKeyGenParams,
  RS256: rsa('RSASSA-PKCS1-v1_5', 'SHA-256'),
  RS384: rsa('RSASSA-PKCS1-v1_5', 'SHA-384'),
  RS512: rsa('RSASSA-PKCS1-v1_5', 'SHA-512'),
  PS256: rsa('RSA-PSS', 'SHA-256'),
};

function rsa(name: string, hash: string): webcrypto.RsaHashedKeyGenParams {
  return { name, hash, modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]) };
}

export interface ListOperator {
  algorithm: OperatorAlgorithm;
  keys: webcrypto.CryptoKeyPair;
  /** The self-signed certificate, standard base64 DER: what the reader is given to pin. */
  certificate: string;
}

export async function listOperator(algorithm: OperatorAlgorithm = 'ES256', name = 'Test TL Operator') {
  const params = KEYS[algorithm];
  const keys = (await webcrypto.subtle.generateKey(params, true, [
    'sign',
    'verify',
  ])) as webcrypto.CryptoKeyPair;
  const hash = algorithm.startsWith('ES') ? `SHA-${algorithm.slice(2)}` : undefined;
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    name: `CN=${name}, C=ZZ`,
    notBefore: new Date('2020-01-01T00:00:00Z'),
    notAfter: new Date('2040-01-01T00:00:00Z'),
    signingAlgorithm: hash
      ? { ...params, hash }
      : algorithm === 'PS256'
        ? { ...params, saltLength: 32 }
        : params,
    keys,
  });
  return { algorithm, keys, certificate: Buffer.from(cert.rawData).toString('base64') } as ListOperator;
}

export interface ListContent {
  id?: string;
  type?: string;
  territory?: string;
  sequence?: number;
  issuedAt?: Date;
  nextUpdate?: Date;
  providers?: { names: Record<string, string>; services: { type: string; status: string; cert: string }[] }[];
  pointers?: { url: string; territory: string; certs: string[] }[];
}

const xmlText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');

/** An unsigned TS 119 612 list (default namespace, as the EU's tooling writes it). */
export function trustedListXml(c: ListContent = {}): string {
  const names = (n: Record<string, string>) =>
    Object.entries(n)
      .map(([lang, name]) => `<Name xml:lang="${lang}">${xmlText(name)}</Name>`)
      .join('');
  const pointers = (c.pointers ?? []).map(
    (p) =>
      `<OtherTSLPointer><ServiceDigitalIdentities><ServiceDigitalIdentity>${p.certs
        .map((cert) => `<DigitalId><X509Certificate>\n  ${cert}\n</X509Certificate></DigitalId>`)
        .join('')}</ServiceDigitalIdentity></ServiceDigitalIdentities>` +
      `<TSLLocation>${xmlText(p.url)}</TSLLocation><AdditionalInformation>` +
      `<OtherInformation><SchemeTerritory>${p.territory}</SchemeTerritory></OtherInformation>` +
      `<OtherInformation><ns3:MimeType>application/vnd.etsi.tsl+xml</ns3:MimeType></OtherInformation>` +
      `</AdditionalInformation></OtherTSLPointer>`,
  );
  const providers = (c.providers ?? []).map(
    (p) =>
      `<TrustServiceProvider><TSPInformation><TSPName>${names(p.names)}</TSPName></TSPInformation><TSPServices>${p.services
        .map(
          (s) =>
            `<TSPService><ServiceInformation><ServiceTypeIdentifier>${s.type}</ServiceTypeIdentifier>` +
            `<ServiceDigitalIdentity><DigitalId><X509Certificate>${s.cert}</X509Certificate></DigitalId>` +
            `</ServiceDigitalIdentity><ServiceStatus>${s.status}</ServiceStatus></ServiceInformation></TSPService>`,
        )
        .join('')}</TSPServices></TrustServiceProvider>`,
  );
  const iso = (d: Date) => d.toISOString().replace('.000', '');
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<TrustServiceStatusList xmlns="${TSL}" xmlns:ns3="${ADDITIONAL}" Id="${c.id ?? 'TSL-1'}" TSLTag="http://uri.etsi.org/19612/TSLTag">` +
    `<SchemeInformation><TSLVersionIdentifier>5</TSLVersionIdentifier>` +
    `<TSLSequenceNumber>${c.sequence ?? 7}</TSLSequenceNumber>` +
    `<TSLType>${c.type ?? 'http://uri.etsi.org/TrstSvc/TrustedList/TSLType/EUgeneric'}</TSLType>` +
    `<SchemeTerritory>${c.territory ?? 'ZZ'}</SchemeTerritory>` +
    (pointers.length ? `<PointersToOtherTSL>${pointers.join('')}</PointersToOtherTSL>` : '') +
    `<ListIssueDateTime>${iso(c.issuedAt ?? new Date('2025-01-01T00:00:00Z'))}</ListIssueDateTime>` +
    `<NextUpdate><dateTime>${iso(c.nextUpdate ?? new Date('2025-07-01T00:00:00Z'))}</dateTime></NextUpdate>` +
    `</SchemeInformation>` +
    (providers.length ? `<TrustServiceProviderList>${providers.join('')}</TrustServiceProviderList>` : '') +
    `</TrustServiceStatusList>`
  );
}

const SIGNING: Record<
  OperatorAlgorithm,
  webcrypto.Algorithm | webcrypto.EcdsaParams | webcrypto.RsaPssParams
> = {
  ES256: { name: 'ECDSA', hash: 'SHA-256' } as webcrypto.EcdsaParams,
  ES384: { name: 'ECDSA', hash: 'SHA-384' } as webcrypto.EcdsaParams,
  RS256: { name: 'RSASSA-PKCS1-v1_5' },
  RS384: { name: 'RSASSA-PKCS1-v1_5' },
  RS512: { name: 'RSASSA-PKCS1-v1_5' },
  PS256: { name: 'RSA-PSS', saltLength: 32 } as webcrypto.RsaPssParams,
};

type XPathTransform = { name: 'xpath'; selector: string };

/**
 * Signs `xml` as its operator would: an enveloped XAdES signature appended to the root, referencing
 * the whole document (`""`, the default) or the root's Id, with the signer's certificate in KeyInfo
 * and in SigningCertificateV2.
 */
export async function signList(
  xml: string,
  operator: ListOperator,
  options: { uri?: string; extraReferences?: string[]; transforms?: (string | XPathTransform)[] } = {},
): Promise<string> {
  const document = new DOMParser().parseFromString(xml, 'text/xml');
  const signed = new SignedXml();
  const references = [
    { uri: options.uri ?? '', hash: 'SHA-256', transforms: options.transforms ?? ['enveloped', 'exc-c14n'] },
    ...(options.extraReferences ?? []).map((uri) => ({ uri, hash: 'SHA-256', transforms: ['exc-c14n'] })),
  ];
  const signature = await signed.Sign(
    SIGNING[operator.algorithm] as Parameters<SignedXml['Sign']>[0],
    operator.keys.privateKey as unknown as Parameters<SignedXml['Sign']>[1],
    document as unknown as Parameters<SignedXml['Sign']>[2],
    { references, x509: [operator.certificate], signingCertificateV2: operator.certificate },
  );
  document.documentElement?.appendChild(signature.GetXml() as unknown as Node);
  return new XMLSerializer().serializeToString(document);
}
