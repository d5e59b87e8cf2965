import { LoTEProfile, validateLoTE, validateLoTEProfile } from '@owf/eudi-lote';
import { describe, expect, it } from 'vitest';
import { readLote } from '../../server/trust/lists/lote/read-lote.js';
import { type LoteProfile, makeLoteOperator, PROFILE_SERVICE_TYPES } from '../support/lote-operator.js';
import { makeTestCa } from '../support/test-ca.js';
import { decodeHeader, decodePayload } from '../support/x5c-validation.js';

/**
 * The test operator other tests publish lists with: what it signs is what `@owf/eudi-lote` makes and
 * validates (for an EU profile, `validateLoTEProfile` too), and what readLote reads.
 */

const operator = await makeLoteOperator('EU Test Operator');
const issuerCa = await makeTestCa('PID Issuer');
const issuerCertificate = Buffer.from(issuerCa.intermediate.rawData).toString('base64');

const PROFILE_ENUM: Record<LoteProfile, LoTEProfile> = {
  pid: LoTEProfile.EUPIDProvidersList,
  wallet: LoTEProfile.EUWalletProvidersList,
  wrpac: LoTEProfile.EUWRPACProvidersList,
};

describe('makeLoteOperator (test support)', () => {
  it('signs with signLoTE: a compact JWS whose x5c is the operator certificate a reader pins', async () => {
    const jws = await operator.sign([
      {
        name: 'Issuer',
        services: [{ type: PROFILE_SERVICE_TYPES.pid.issuance, certificates: [issuerCertificate] }],
      },
    ]);
    expect(jws.split('.')).toHaveLength(3);
    expect(decodeHeader(jws)).toMatchObject({
      alg: 'ES256',
      typ: 'trustlist+jwt',
      x5c: [operator.certificate],
    });
    expect(validateLoTE(decodePayload(jws))).toEqual({ valid: true, errors: [] });
  });

  for (const profile of Object.keys(PROFILE_ENUM) as LoteProfile[]) {
    it(`publishes a ${profile} list that passes the library's EU profile check and reads back`, async () => {
      const types = PROFILE_SERVICE_TYPES[profile];
      const entities = [
        {
          name: `A ${profile} provider`,
          services: [
            { type: types.issuance, certificates: [issuerCertificate] },
            { type: types.revocation, certificates: [issuerCertificate] },
          ],
        },
      ];
      const nextUpdate = new Date(Date.now() + 90 * 86_400_000);
      const jws = await operator.sign(entities, { profile, sequence: 3, nextUpdate });

      expect(validateLoTEProfile(decodePayload(jws), PROFILE_ENUM[profile])).toEqual({
        valid: true,
        errors: [],
      });
      const list = await readLote(jws, [operator.certificate]);
      expect(list).toMatchObject({ sequence: 3, territory: 'EU', nextUpdate });
      expect(list.entities).toEqual([
        {
          name: `A ${profile} provider`,
          services: [
            { serviceType: types.issuance, certificates: [issuerCertificate] },
            { serviceType: types.revocation, certificates: [issuerCertificate] },
          ],
        },
      ]);
    });
  }

  it('makes a list for one profile that another profile refuses', async () => {
    const jws = await operator.sign(
      [
        {
          name: 'Issuer',
          services: [{ type: PROFILE_SERVICE_TYPES.pid.issuance, certificates: [issuerCertificate] }],
        },
      ],
      { profile: 'pid' },
    );
    expect(validateLoTEProfile(decodePayload(jws), LoTEProfile.EUWalletProvidersList).valid).toBe(false);
  });
});
