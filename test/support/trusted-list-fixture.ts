import { expect } from 'vitest';
import {
  readTrustedList,
  SERVICE_TYPE_CA_QC,
  SERVICE_TYPE_QEAA,
  TrustListError,
} from '../../server/trust/lists/trusted-list/index.js';
import { listOperator, signList, trustedListXml } from './trusted-list-operator.js';

/**
 * The list the trusted list reader tests start from: written and signed (ES256, Reference "") by a test
 * operator, with one provider named in German and English and two services, one of them with its
 * certificate broken over lines as real lists do. `stranger` is an operator nobody pinned.
 */

export const GRANTED = 'http://uri.etsi.org/TrstSvc/TrustedList/Svcstatus/granted';
export const TSL = 'http://uri.etsi.org/02231/v2#';
export const DSIG = 'http://www.w3.org/2000/09/xmldsig#';
/** Between the list's ListIssueDateTime (2025-01-01) and NextUpdate (2025-07-01). */
export const now = new Date('2025-03-01T00:00:00Z');
export const operator = await listOperator('ES256');
export const stranger = await listOperator('ES256', 'Someone Else');
export const issuerCert = (await listOperator('ES256', 'A QEAA Provider')).certificate;

export const content = {
  providers: [
    {
      names: { de: 'Beispiel Anbieter', en: 'Example Provider' },
      services: [
        {
          type: SERVICE_TYPE_QEAA,
          status: GRANTED,
          cert: `\n  ${issuerCert.slice(0, 40)}\n  ${issuerCert.slice(40)}\n`,
        },
        { type: SERVICE_TYPE_CA_QC, status: GRANTED, cert: issuerCert },
      ],
    },
  ],
};
export const signedList = await signList(trustedListXml(content), operator);

export const read = (xml: Buffer | string, pinned = [operator.certificate], at = now) =>
  readTrustedList(xml, pinned, { now: at });

/** The TrustListError reading `xml` is refused with (failing the test when it is read). */
export const refused = async (xml: Buffer | string, pinned = [operator.certificate]) => {
  const error = await read(xml, pinned).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TrustListError);
  return error as TrustListError;
};
export const refusal = async (xml: Buffer | string, pinned?: string[]) => (await refused(xml, pinned)).code;
