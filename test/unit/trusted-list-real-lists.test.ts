import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  type ReadList,
  readTrustedList,
  SERVICE_TYPE_CA_QC,
  TSL_TYPE_EU_GENERIC,
  TSL_TYPE_EU_LOTL,
} from '../../server/trust/lists/trusted-list/index.js';

/**
 * Real published lists, byte for byte with their signatures (test/fixtures/trusted-lists/README.md says
 * where each came from), read the way an operator would: the LOTL pinned to the signing certificates
 * it announces, each member state's list pinned to the certificates the verified LOTL's pointer gives.
 */
const fixture = (name: string) => readFileSync(new URL(`../fixtures/trusted-lists/${name}`, import.meta.url));
const announcedLotlSigners = fixture('eu-lotl-341-announced-signers.txt').toString().trim().split('\n');

// LOTL 341 was issued 2024-05-31 with NextUpdate 2024-12-01; the FI list 2024-11-14 (NextUpdate
// 2025-05-14); the SK list 2022-10-19 (NextUpdate 2023-02-14).
const lotlTime = new Date('2024-11-20T00:00:00Z');
const readLotl = () => readTrustedList(fixture('eu-lotl-341.xml'), announcedLotlSigners, { now: lotlTime });
const pointerSigners = (lotl: ReadList, territory: string) =>
  lotl.pointers.find((p) => p.territory === territory && p.mimeType === 'application/vnd.etsi.tsl+xml')
    ?.signerCertificates ?? [];

describe('real trusted lists', () => {
  it('reads the EU LOTL, sequence 341, with its 43 pointers', async () => {
    const lotl = await readLotl();
    expect(lotl).toMatchObject({
      sequence: 341,
      territory: 'EU',
      type: TSL_TYPE_EU_LOTL,
      issuedAt: new Date('2024-05-31T08:10:34Z'),
      nextUpdate: new Date('2024-12-01T09:10:34Z'),
      entities: [],
      // The European Commission's seal certificate, one of the seven the LOTL announces.
      signedBy: 'e0a620fbb6747362bb933ac44169d676a553444716cf5f31605f12a22b8396b1',
    });
    expect(lotl.pointers).toHaveLength(43);
    expect(lotl.pointers.find((p) => p.territory === 'FI')).toMatchObject({
      url: 'https://dp.trustedlist.fi/fi-tl.xml',
      type: TSL_TYPE_EU_GENERIC,
      mimeType: 'application/vnd.etsi.tsl+xml',
    });
    expect(pointerSigners(lotl, 'FI')).toHaveLength(4);
    // The LOTL points at itself too, with the signers it announces.
    expect(lotl.pointers.find((p) => p.territory === 'EU')?.signerCertificates).toEqual(announcedLotlSigners);
    for (const pointer of lotl.pointers) {
      for (const cert of pointer.signerCertificates)
        expect(() => new X509Certificate(Buffer.from(cert, 'base64'))).not.toThrow();
    }
  });

  it("reads Finland's list (UTF-8 BOM, RSA-SHA256) pinned to the signers the LOTL's pointer gives", async () => {
    const fi = await readTrustedList(
      fixture('fi-tl-2024-11-14.xml'),
      pointerSigners(await readLotl(), 'FI'),
      {
        now: lotlTime,
      },
    );
    expect(fi).toMatchObject({ sequence: 49, territory: 'FI', type: TSL_TYPE_EU_GENERIC, pointers: [] });
    expect(fi.entities.map((e) => e.name)).toEqual(['Digital and Population Data Services Agency']);
    const services = fi.entities[0]?.services ?? [];
    expect(services).toHaveLength(19);
    expect(services.every((s) => s.serviceType === SERVICE_TYPE_CA_QC)).toBe(true);
    expect(
      services.filter((s) => s.status === 'http://uri.etsi.org/TrstSvc/TrustedList/Svcstatus/granted'),
    ).toHaveLength(12);
    for (const s of services) {
      expect(s.certificates).toHaveLength(1);
      expect(new X509Certificate(Buffer.from(s.certificates[0] as string, 'base64')).issuer).toMatch(/C=FI/);
    }
  });

  it("reads Slovakia's list, sequence 95, with its nine providers", async () => {
    const sk = await readTrustedList(fixture('sk-tl-95.xml'), pointerSigners(await readLotl(), 'SK'), {
      now: new Date('2023-01-01T00:00:00Z'),
    });
    expect(sk).toMatchObject({ sequence: 95, territory: 'SK', issuedAt: new Date('2022-10-19T12:00:00Z') });
    expect(sk.entities).toHaveLength(9);
    expect(sk.entities.map((e) => e.name)).toContain('Disig, a.s.');
    const types = new Set(sk.entities.flatMap((e) => e.services.map((s) => s.serviceType)));
    expect(types).toContain(SERVICE_TYPE_CA_QC);
    expect(types).toContain('http://uri.etsi.org/TrstSvc/Svctype/TSA/QTST');
  });

  it("refuses Finland's list pinned to another member state's signers", async () => {
    const lotl = await readLotl();
    await expect(
      readTrustedList(fixture('fi-tl-2024-11-14.xml'), pointerSigners(lotl, 'SE'), { now: lotlTime }),
    ).rejects.toMatchObject({ code: 'signer_not_pinned' });
  });

  it("refuses Finland's list with one byte of a provider's name changed", async () => {
    const text = fixture('fi-tl-2024-11-14.xml').toString('utf8');
    const changed = text.replace('Digital and Population Data', 'Digital and Population Dbta');
    expect(changed).not.toBe(text);
    const signers = pointerSigners(await readLotl(), 'FI');
    await expect(readTrustedList(changed, signers, { now: lotlTime })).rejects.toMatchObject({
      code: 'signature_invalid',
    });
  });

  it('refuses the LOTL after its NextUpdate, and reads it when the caller allows a grace', async () => {
    const late = new Date('2024-12-03T00:00:00Z');
    await expect(
      readTrustedList(fixture('eu-lotl-341.xml'), announcedLotlSigners, { now: late }),
    ).rejects.toMatchObject({ code: 'expired' });
    const graceOfThreeDays = new Date(late.getTime() - 3 * 24 * 3600_000);
    await expect(
      readTrustedList(fixture('eu-lotl-341.xml'), announcedLotlSigners, { now: graceOfThreeDays }),
    ).resolves.toMatchObject({ sequence: 341 });
  });
});
