import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTenantFixture, type TenantFixture } from '../support/tenant-fixture.js';

/**
 * Hostile DeviceResponses against a live mdoc session (direct_post): malformed or oversized CBOR,
 * indefinite lengths, deep nesting, unknown tags, COSE of the wrong shape. Each is an OAuth
 * invalid_request to the wallet and a failed session with a reason to the integrator; never a 5xx,
 * never a verified session.
 */
let f: TenantFixture;

beforeAll(async () => {
  f = await startTenantFixture();
});
afterAll(() => f.stop());

const hex = (h: string) => Buffer.from(h.replace(/\s/g, ''), 'hex').toString('base64url');
const HOSTILE: [string, string][] = [
  ['not base64url', '%%%'],
  ['empty', ''],
  ['garbage bytes', hex('ff00ff00deadbeef')],
  ['indefinite-length map', hex('bf 67 76 65 72 73 69 6f 6e 63 31 2e 30 ff')],
  ['nesting 10,000 deep', hex(`${'81'.repeat(10_000)}00`)],
  ['a byte string claiming 4 GiB', hex('5b 00000001 00000000 00')],
  ['a map claiming 2^32 entries', hex('ba ffffffff')],
  ['an unknown tag', hex('d9 9999 a0')],
  [
    'a DeviceResponse of the wrong types',
    hex('a3 67 76657273696f6e 01 69 646f63756d656e7473 60 66 737461747573 61 30'),
  ],
  [
    'a document of another doctype (wrong_type), its issuerAuth text',
    // {"version":"1.0","documents":[{"docType":"x","issuerSigned":{"issuerAuth":"x"}}],"status":0}
    hex(
      'a3 67 76657273696f6e 63 312e30 69 646f63756d656e7473 81 a2 67 646f6354797065 61 78 6c 69737375657253696' +
        '76e6564 a1 6a 697373756572417574 68 61 78 66 737461747573 00',
    ),
  ],
];

async function mdocSession() {
  const res = await f.integrator.createAuthorizationRequest({
    body: { credential_configuration_id: 'EmployeeMdoc', response_mode: 'direct_post' } as never,
  });
  if (res.status !== 201) throw new Error(`session: ${res.status}`);
  const request = await fetch(
    decodeURIComponent(res.body.authorization_request_uri.split('request_uri=')[1] ?? ''),
  );
  const payload = JSON.parse(Buffer.from((await request.text()).split('.')[1] ?? '', 'base64url').toString());
  return { id: res.body.session_id, state: payload.state as string };
}

describe('hostile DeviceResponses', () => {
  it.each(HOSTILE)(
    '%s: invalid_request, a failed session, nothing verified',
    async (label, deviceResponse) => {
      const s = await mdocSession();
      const res = await fetch(`${f.t.baseUrl}/oid4vp/auth-response`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          state: s.state,
          vp_token: JSON.stringify({ credential: [deviceResponse] }),
        }),
      });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ error: 'invalid_request' });
      const polled = await f.integrator.getAuthorizationRequest({ params: { id: s.id } });
      // The doctype is checked first: a document of another one fails as wrong_type, the rest as malformed.
      const reason = label.includes('wrong_type') ? 'wrong_type' : 'malformed';
      expect(polled.body).toMatchObject({ status: 'failed', reason });
    },
  );
});
