import { type Certificate, parseCertificate } from '../keys/x509-certificate.js';
import type { ServiceType } from './service-types.js';

/**
 * A tenant's trust as every chain decision takes it: its static anchors (registered by hand) and
 * the certificates its trust sources list, each with the entity, service type and credential types
 * it may vouch for. Built once per verification from cached rows; the certificates parse once per
 * process.
 */
export interface Trust {
  anchors: readonly Certificate[];
  listed: readonly ListedCertificate[];
}

/** A certificate a trust source lists, as stored (standard base64 DER) with what it may vouch for. */
export interface ListedCertificateRow {
  certificate: string;
  source: string;
  entity: string;
  serviceType: ServiceType;
  /** The source's credential type restriction; both absent: any type. */
  vct?: readonly string[];
  doctype?: readonly string[];
}

export interface ListedCertificate extends Omit<ListedCertificateRow, 'certificate'> {
  certificate: Certificate;
}

/** What a chain is to be trusted for: the service types that may vouch, the credential's type. */
export interface TrustPurpose {
  serviceTypes: readonly string[];
  vct?: string;
  doctype?: string;
  /** A credential of another kind (W3C): a source restricted to vct values or doctypes does not vouch for it. */
  credential?: boolean;
}

const parsed = new Map<string, Certificate | null>();

/** A certificate parsed once per process (a tenant has a few, used for every presentation); null if it does not parse. */
export function parsedCertificate(der: string): Certificate | null {
  let cert = parsed.get(der);
  if (cert === undefined) {
    try {
      cert = parseCertificate(der, 'a trusted certificate');
    } catch {
      cert = null;
    }
    if (parsed.size >= 5000) parsed.delete(parsed.keys().next().value as string);
    parsed.set(der, cert);
  }
  return cert;
}

const parseAll = <T>(items: readonly T[], der: (t: T) => string) =>
  items.flatMap((item) => {
    const cert = parsedCertificate(der(item));
    return cert ? [{ item, cert }] : [];
  });

/** The Trust of anchors and listed certificates as stored; one that does not parse is left out. */
export function trustOf(
  anchors: readonly string[] = [],
  listed: readonly ListedCertificateRow[] = [],
): Trust {
  return {
    anchors: parseAll(anchors, (a) => a).map(({ cert }) => cert),
    listed: parseAll(listed, (l) => l.certificate).map(({ item, cert }) => ({ ...item, certificate: cert })),
  };
}

/** Whether any chain can be trusted at all (no anchors and no lists: x5c chains are not evaluated). */
export const chainsTrusted = (trust: Trust) => trust.anchors.length > 0 || trust.listed.length > 0;

const keys = new WeakMap<Trust, string>();

/** Names a Trust for caches of things verified under it (a status list, a validated chain); computed once per Trust. */
export function trustKey(trust: Trust): string {
  let key = keys.get(trust);
  if (key === undefined) {
    key = [
      ...trust.anchors.map((a) => a.sha256),
      // What a listed certificate may vouch for is part of the name: a cached chain is trusted only for it.
      ...trust.listed.map(
        (l) =>
          `${l.source}/${l.serviceType}/${l.certificate.sha256}/${(l.vct ?? []).join(' ')}/${(l.doctype ?? []).join(' ')}`,
      ),
    ].join(',');
    keys.set(trust, key);
  }
  return key;
}

/** Whether a listed certificate may vouch for `purpose`: its service type, and its source's credential types. */
export function vouchesFor(listed: ListedCertificate, purpose: TrustPurpose): boolean {
  if (!purpose.serviceTypes.includes(listed.serviceType)) return false;
  if (!listed.vct && !listed.doctype) return true;
  if (purpose.vct !== undefined) return listed.vct?.includes(purpose.vct) ?? false;
  if (purpose.doctype !== undefined) return listed.doctype?.includes(purpose.doctype) ?? false;
  // Not a credential (a status list, an attestation): the service type alone decides.
  return !purpose.credential;
}
