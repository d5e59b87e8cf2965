import { DeviceRequest } from '@owf/mdoc';
import { describe, expect, it } from 'vitest';
import { annexCRequestForQuery } from '../../server/formats/mso-mdoc/annex-c-presentation.js';
import { sessionTranscriptOf } from '../../server/formats/mso-mdoc/mdoc-transcript.js';
import {
  annexCSessionTranscript,
  oid4vpDcApiSessionTranscript,
} from '../../server/formats/mso-mdoc/session-transcript.js';
import { KeyEncryption } from '../../server/keys/key-encryption.js';
import { resolveChecks } from '../../server/oid4vp/verification/types.js';
import {
  annexCRecipientKey,
  annexCSessionRequest,
} from '../../server/verification/annex-c-session-request.js';

/** Which DCQL queries a session offers an ISO 18013-7 Annex C request for, and the transcript it then checks. */
const NS = 'org.example.employee.1';
const mdocQuery = (more: Record<string, unknown> = {}) => ({
  id: 'badge',
  format: 'mso_mdoc',
  meta: { doctype_value: NS },
  claims: [
    { path: [NS, 'given_name'], intent_to_retain: true },
    { path: [NS, 'age_over_18'], values: [true] },
  ],
  ...more,
});

describe('annexCRequestForQuery', () => {
  it('asks one mso_mdoc query by its doctype and elements, IntentToRetain as the claims say', () => {
    const request = annexCRequestForQuery({
      credentials: [mdocQuery({ trusted_authorities: [{ type: 'aki', values: ['abc'] }] })],
    });
    const read = DeviceRequest.decode(new Uint8Array(Buffer.from(request?.deviceRequest ?? '', 'base64url')));
    const [docRequest] = read.docRequests;
    expect(docRequest?.itemsRequest.docType).toBe(NS);
    expect([...(docRequest?.itemsRequest.namespaces.get(NS) ?? [])]).toEqual([
      ['given_name', true],
      ['age_over_18', false],
    ]);
  });

  it('offers nothing for a query Annex C cannot express', () => {
    const sdJwt = { id: 'pid', format: 'dc+sd-jwt', meta: { vct_values: ['urn:pid'] } };
    const claims = [
      { id: 'a', path: [NS, 'given_name'] },
      { id: 'b', path: [NS, 'age_over_18'] },
    ];
    for (const query of [
      { credentials: [sdJwt] },
      { credentials: [mdocQuery(), { ...mdocQuery(), id: 'second' }] },
      { credentials: [mdocQuery()], credential_sets: [{ options: [['badge']], required: false }] },
      { credentials: [mdocQuery({ multiple: true })] },
      { credentials: [mdocQuery({ claims, claim_sets: [['a'], ['b']] })] },
      { credentials: [mdocQuery({ claims: undefined })] },
      { credentials: [mdocQuery({ claims: [{ path: [NS, 'address', 'city'] }] })] },
      { credentials: [mdocQuery({ claims: [{ path: [NS, null] }] })] },
      { credentials: 'not DCQL' },
      {},
    ])
      expect(annexCRequestForQuery(query), JSON.stringify(query)).toBeUndefined();
  });
});

describe('annexCSessionRequest', () => {
  const sealing = new KeyEncryption('test');
  const dcqlQuery = { credentials: [mdocQuery()] };
  it('keeps the EncryptionInfo as sent and its key sealed to the session; none under HAIP 1.0', () => {
    const made = annexCSessionRequest(sealing, { id: 's-1', dcqlQuery, profile: null });
    expect(made?.request.protocol).toBe('org-iso-mdoc');
    expect(made?.kept.annexCEncryptionInfo).toBe(made?.request.data.encryptionInfo);
    const sealed = { annexCKeySealed: made?.kept.annexCKeySealed ?? null };
    expect(annexCRecipientKey(sealing, { id: 's-1', ...sealed })).toMatchObject({
      crv: 'P-256',
      d: expect.any(String),
    });
    expect(() => annexCRecipientKey(sealing, { id: 's-2', ...sealed })).toThrow();
    expect(annexCSessionRequest(sealing, { id: 's-3', dcqlQuery, profile: 'haip-1.0' })).toBeUndefined();
  });
});

describe('sessionTranscriptOf', () => {
  const context = {
    nonce: 'n-0',
    clientId: 'x509_hash:abc',
    trustedIssuers: async () => undefined,
    fetchStatusList: async () => '',
  };
  it('is the dcapi transcript for an Annex C answer, OID4VP B.2.6.2 for any other over the DC API', () => {
    const origin = 'https://shop.example';
    const annexC = resolveChecks({ ...context, transaction: { origin, annexC: { encryptionInfo: 'EI' } } });
    expect(sessionTranscriptOf(annexC)).toEqual(annexCSessionTranscript({ encryptionInfo: 'EI', origin }));
    const dcApi = resolveChecks({ ...context, transaction: { origin } });
    expect(sessionTranscriptOf(dcApi)).toEqual(oid4vpDcApiSessionTranscript({ origin, nonce: 'n-0' }));
  });
});
