import { X509Certificate } from 'node:crypto';
import type {
  LocalizedString,
  OtherLoTEPointer,
  ServiceDigitalIdentity,
  TrustedEntity,
} from '@owf/eudi-lote';
import {
  type ListedEntity,
  type ListedService,
  type ListPointer,
  type ReadList,
  TrustListError,
} from '../read-list.js';
import type { ReadableLote } from './lote-shape.js';

/**
 * Maps a shape-checked LoTE to what both trust list readers produce (server/trust/lists/read-list.ts),
 * in the list's own vocabulary. Every certificate is read as X.509 here, so a certificate that is not
 * one makes the whole list `malformed` rather than a service that silently matches nothing.
 */

/** The English value when the list has one (`en`, `en-GB`, ...), else the first. */
export function preferEnglish(values: readonly LocalizedString[]): string | undefined {
  const english = values.find(({ lang }) => /^en(-|$)/i.test(lang));
  return (english ?? values[0])?.value;
}

/** A `ServiceDigitalIdentity`'s X.509 certificates, re-encoded as standard base64 DER (line breaks dropped). */
function certificatesOf(identity: ServiceDigitalIdentity, path: string): string[] {
  return (identity.X509Certificates ?? []).map(({ val }, i) => {
    try {
      return new X509Certificate(Buffer.from(val.replace(/\s+/g, ''), 'base64')).raw.toString('base64');
    } catch {
      throw new TrustListError('malformed', `${path}.X509Certificates.${i}.val is not an X.509 certificate`);
    }
  });
}

function mapEntity(entity: TrustedEntity, index: number): ListedEntity {
  const path = `LoTE.TrustedEntitiesList.${index}`;
  const services: ListedService[] = [];
  entity.TrustedEntityServices.forEach(({ ServiceInformation: info }, j) => {
    // TS 119 602 makes the type optional in general (the EU profiles require it). A service without one
    // cannot be matched to anything a trust source vouches for, so it is left out rather than guessed.
    if (!info.ServiceTypeIdentifier) return;
    const identityPath = `${path}.TrustedEntityServices.${j}.ServiceInformation.ServiceDigitalIdentity`;
    services.push({
      serviceType: info.ServiceTypeIdentifier,
      ...(info.ServiceStatus ? { status: info.ServiceStatus } : {}),
      certificates: certificatesOf(info.ServiceDigitalIdentity, identityPath),
    });
  });
  return { name: preferEnglish(entity.TrustedEntityInformation.TEName) ?? '', services };
}

function mapPointer(pointer: OtherLoTEPointer, index: number): ListPointer {
  const path = `LoTE.ListAndSchemeInformation.PointersToOtherLoTE.${index}.ServiceDigitalIdentities`;
  const qualifier = pointer.LoTEQualifiers.find((q) => q.SchemeTerritory) ?? pointer.LoTEQualifiers[0];
  return {
    url: pointer.LoTELocation,
    ...(qualifier?.SchemeTerritory ? { territory: qualifier.SchemeTerritory } : {}),
    signerCertificates: pointer.ServiceDigitalIdentities.flatMap((identity, i) =>
      certificatesOf(identity, `${path}.${i}`),
    ),
    ...(qualifier?.MimeType ? { mimeType: qualifier.MimeType } : {}),
  };
}

export function mapLote(lote: ReadableLote, signedBy: string): ReadList {
  const info = lote.ListAndSchemeInformation;
  return {
    issuedAt: new Date(info.ListIssueDateTime),
    nextUpdate: new Date(info.NextUpdate),
    sequence: info.LoTESequenceNumber,
    ...(info.SchemeTerritory ? { territory: info.SchemeTerritory } : {}),
    entities: (lote.TrustedEntitiesList ?? []).map(mapEntity),
    pointers: (info.PointersToOtherLoTE ?? []).map(mapPointer),
    signedBy,
  };
}
