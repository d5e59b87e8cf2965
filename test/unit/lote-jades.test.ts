import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { LOTE_SERVICE_TYPES } from '../../server/trust/lists/lote/index.js';
import { readLote } from '../../server/trust/lists/lote/read-lote.js';
import { TrustListError } from '../../server/trust/lists/read-list.js';
import { makeLoteOperator } from '../support/lote-operator.js';

/**
 * The JAdES side of reading a LoTE: both JWS serializations, the signer named by `x5c` or `x5t#S256`,
 * critical header parameters (RFC 7515 4.1.11), and the signing certificate's own validity.
 */

const operator = await makeLoteOperator('JAdES Test Operator');
const pinned = [operator.certificate];
const entities = [
  { name: 'Test PID Provider', services: [{ type: LOTE_SERVICE_TYPES.pidIssuance, certificates: pinned }] },
];
const x5tS256 = createHash('sha256').update(Buffer.from(operator.certificate, 'base64')).digest('base64url');

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.fail('the list should have been refused'),
    (e: unknown) => {
      expect(e).toBeInstanceOf(TrustListError);
      return e as TrustListError;
    },
  );

const parts = (jws: string) => {
  const [protectedHeader, payload, signature] = jws.split('.') as [string, string, string];
  return { protected: protectedHeader, payload, signature };
};

describe('readLote: JAdES signatures', () => {
  it('reads the JWS JSON serialization, flattened or general with one signature, as it reads the compact one', async () => {
    const jws = await operator.sign(entities);
    const compact = await readLote(jws, pinned);
    const { payload, ...signature } = parts(jws);
    const flattened = JSON.stringify({ payload, ...signature });
    // JAdES keeps its unsigned attributes in the unprotected header `etsiU`: they are not needed here.
    const general = JSON.stringify({ payload, signatures: [{ ...signature, header: { etsiU: [] } }] });

    expect(await readLote(flattened, pinned)).toEqual(compact);
    expect(await readLote(general, pinned)).toEqual(compact);

    const twice = JSON.stringify({ payload, signatures: [signature, signature] });
    expect((await refusal(readLote(twice, pinned))).code).toBe('signature_invalid');
    const unprotected = JSON.stringify({ payload, signature: signature.signature, header: { alg: 'ES256' } });
    expect((await refusal(readLote(unprotected, pinned))).code).toBe('signature_invalid');
  });

  it('reads a Buffer as it reads a string, and names an entity in English when the list has English', async () => {
    const document = operator.document(entities);
    const [entity] = document.LoTE.TrustedEntitiesList;
    if (!entity) throw new Error('no entity');
    entity.TrustedEntityInformation.TEName = [
      { lang: 'de', value: 'Test-PID-Anbieter' },
      { lang: 'en-GB', value: 'Test PID Provider' },
    ];
    const jws = await operator.signPayload(document);

    const list = await readLote(Buffer.from(`${jws}\n`), pinned);
    expect(list.entities.map((e) => e.name)).toEqual(['Test PID Provider']);
  });

  it('accepts the JAdES signing time marked critical, and refuses critical parameters it does not implement', async () => {
    const document = operator.document(entities);
    const sigT = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    const list = await readLote(await operator.signPayload(document, { sigT, crit: ['sigT'] }), pinned);
    expect(list.entities).toHaveLength(1);

    const refused: [Record<string, unknown>, RegExp][] = [
      [{ sigD: { mId: 'http://uri.etsi.org/19182/ObjectIdByURI' }, crit: ['sigD'] }, /"sigD" critical/],
      [{ crit: ['sigT'] }, /does not carry it/],
      [{ sigT: 'yesterday', crit: ['sigT'] }, /not a date-time/],
      [{ crit: [] }, /non-empty list/],
      [{ b64: true, crit: ['b64'] }, /b64/],
    ];
    for (const [header, reason] of refused) {
      const error = await refusal(readLote(await operator.signPayload(document, header), pinned));
      expect(error.code).toBe('signature_invalid');
      expect(error.message).toMatch(reason);
    }
  });

  it('finds the pinned signer by x5t#S256 alone, and refuses a header that names no signer or two', async () => {
    const document = operator.document(entities);
    const byDigest = await operator.signPayload(document, { x5c: undefined, 'x5t#S256': x5tS256 });
    expect(JSON.parse(Buffer.from(parts(byDigest).protected, 'base64url').toString())).not.toHaveProperty(
      'x5c',
    );
    expect((await readLote(byDigest, pinned)).entities).toHaveLength(1);

    const anonymous = await operator.signPayload(document, { x5c: undefined, kid: 'key-1' });
    expect((await refusal(readLote(anonymous, pinned))).message).toMatch(/names no signing certificate/);

    const other = await makeLoteOperator('Other');
    const contradicting = await operator.signPayload(document, {
      'x5t#S256': createHash('sha256').update(Buffer.from(other.certificate, 'base64')).digest('base64url'),
    });
    const error = await refusal(readLote(contradicting, [...pinned, other.certificate]));
    expect(error.code).toBe('signature_invalid');
    expect(error.message).toMatch(/does not match/);
  });

  it('refuses a list signed while the pinned certificate is outside its validity (signature_invalid)', async () => {
    const jws = await operator.sign(entities, { nextUpdate: new Date(Date.now() + 1000 * 86_400_000) });
    const later = new Date(Date.now() + 400 * 86_400_000);
    const error = await refusal(readLote(jws, pinned, { now: later }));
    expect(error.code).toBe('signature_invalid');
    expect(error.message).toMatch(/not valid now/);
  });

  it('refuses what is neither a JWS nor JSON, or not UTF-8 (malformed)', async () => {
    for (const body of ['<TrustServiceStatusList/>', 'a.b', '{"LoTE":', Buffer.from([0xff, 0xfe, 0x00])]) {
      expect((await refusal(readLote(body, pinned))).code).toBe('malformed');
    }
  });
});
