/**
 * The XML-DSig algorithms a trusted list's signature may use. Everything else is refused before any
 * cryptography runs, so what xmldsigjs happens to support is not what this reader accepts:
 *
 * - signature methods: RSASSA-PKCS1-v1_5 and RSASSA-PSS (RFC 6931 `…-rsa-MGF1`, and `rsa-pss` with
 *   explicit parameters) with SHA-256/384/512, and ECDSA with SHA-256/384/512 — what EU lists are signed
 *   with (TS 119 612 clause 5.7.1 requires a XAdES baseline signature; TS 119 312 rules out SHA-1);
 * - reference digests: SHA-256/384/512;
 * - transforms: the enveloped-signature transform and the (exclusive) canonicalizations. No XPath, XPath
 *   Filter 2.0 or XSLT transform: each can make a signature cover less than the document it sits in.
 */

const W3 = 'http://www.w3.org';

export const ENVELOPED_SIGNATURE = `${W3}/2000/09/xmldsig#enveloped-signature`;

const CANONICALIZATIONS: ReadonlySet<string> = new Set([
  `${W3}/TR/2001/REC-xml-c14n-20010315`,
  `${W3}/TR/2001/REC-xml-c14n-20010315#WithComments`,
  `${W3}/2001/10/xml-exc-c14n#`,
  `${W3}/2001/10/xml-exc-c14n#WithComments`,
]);

const DIGESTS: ReadonlySet<string> = new Set([
  `${W3}/2001/04/xmlenc#sha256`,
  `${W3}/2001/04/xmldsig-more#sha384`,
  `${W3}/2001/04/xmlenc#sha512`,
]);

const SIGNATURE_METHODS: ReadonlySet<string> = new Set([
  `${W3}/2001/04/xmldsig-more#rsa-sha256`,
  `${W3}/2001/04/xmldsig-more#rsa-sha384`,
  `${W3}/2001/04/xmldsig-more#rsa-sha512`,
  `${W3}/2007/05/xmldsig-more#sha256-rsa-MGF1`,
  `${W3}/2007/05/xmldsig-more#sha384-rsa-MGF1`,
  `${W3}/2007/05/xmldsig-more#sha512-rsa-MGF1`,
  // Its hash is a parameter; signature-verification.ts refuses the method when that is SHA-1.
  `${W3}/2007/05/xmldsig-more#rsa-pss`,
  `${W3}/2001/04/xmldsig-more#ecdsa-sha256`,
  `${W3}/2001/04/xmldsig-more#ecdsa-sha384`,
  `${W3}/2001/04/xmldsig-more#ecdsa-sha512`,
]);

export const isCanonicalization = (uri: string | null): boolean => uri !== null && CANONICALIZATIONS.has(uri);

export const isAllowedTransform = (uri: string | null): boolean =>
  uri === ENVELOPED_SIGNATURE || isCanonicalization(uri);

export const isAllowedDigest = (uri: string | null): boolean => uri !== null && DIGESTS.has(uri);

export const isAllowedSignatureMethod = (uri: string | null): boolean =>
  uri !== null && SIGNATURE_METHODS.has(uri);
