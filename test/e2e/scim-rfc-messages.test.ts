import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { patchOp, scimClient } from '../support/scim-client.js';
import { messageSchemaOf } from '../support/scim-messages.js';
import { acmeTenant, startTestService, type TestService } from '../support/test-service.js';

/**
 * Every kind of answer the SCIM endpoint gives (each resource, list, discovery document and error
 * status), checked against RFC 7643/7644's message shapes as Okta's spec test and Entra read them.
 */
let t: TestService;
let scim: ReturnType<typeof scimClient>;
let stranger: ReturnType<typeof scimClient>;
type Answer = Awaited<ReturnType<ReturnType<typeof scimClient>['get']>>;
const answers: { request: string; answer: Answer }[] = [];

beforeAll(async () => {
  t = await startTestService();
  const created = await t.admin.createTenant({ body: { ...acmeTenant(), delivery: 'direct' } });
  if (created.status !== 201) throw new Error('no tenant');
  scim = scimClient(t.baseUrl, created.body.id, created.body.scim_token);
  stranger = scimClient(t.baseUrl, created.body.id, 'not-a-token');
});
afterAll(() => t.stop());

/** Sends through `client` and keeps the answer, to be checked with all the others. */
async function send(
  method: 'get' | 'post' | 'put' | 'patch' | 'delete',
  path: string,
  body?: unknown,
  client = scim,
): Promise<Answer> {
  const answer = await (method === 'get' || method === 'delete'
    ? client[method](path)
    : client[method](path, body));
  answers.push({ request: `${method.toUpperCase()} ${path}`, answer });
  return answer;
}

const user = (userName: string) => ({
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
  userName,
  name: { givenName: 'Ana', familyName: 'Ruiz' },
  emails: [{ value: userName, primary: true }],
});
const filter = (f: string) => `?filter=${encodeURIComponent(f)}`;

describe('SCIM answers against the RFC message schemas', () => {
  it('lists, resources and discovery documents', async () => {
    expect((await send('get', '/Users')).body.totalResults).toBe(0);
    const ana = await send('post', '/Users', user('ana@acme.test'));
    expect(ana.status).toBe(201);
    const id = ana.body.id;
    await send('get', `/Users/${id}`);
    await send('get', `/Users${filter('userName eq "ana@acme.test"')}`);
    await send('put', `/Users/${id}`, { ...user('ana@acme.test'), nickName: 'Ani' });
    const patched = await send(
      'patch',
      `/Users/${id}?excludedAttributes=nickName`,
      patchOp({ op: 'replace', path: 'title', value: 'Engineer' }),
    );
    expect(patched.status).toBe(200);
    const group = await send('post', '/Groups', { displayName: 'Staff', members: [{ value: id }] });
    expect(group.status).toBe(201);
    await send('get', `/Groups/${group.body.id}`);
    await send('get', '/Groups');
    await send('get', `/Groups${filter('displayName eq "staff"')}`);
    await send(
      'patch',
      `/Groups/${group.body.id}?excludedAttributes=externalId`,
      patchOp({ op: 'replace', path: 'displayName', value: 'Staff members' }),
    );
    for (const path of ['/ServiceProviderConfig', '/ResourceTypes', '/ResourceTypes/User', '/Schemas'])
      await send('get', path);
    await send('get', '/Schemas/urn:ietf:params:scim:schemas:core:2.0:Group');
  });

  it('errors of every status the endpoint answers', async () => {
    const expectError = async (status: number, answer: Promise<Answer>, scimType?: string) => {
      const { body } = await answer;
      expect(body.status).toBe(String(status));
      if (scimType) expect(body.scimType).toBe(scimType);
    };
    await expectError(400, send('get', `/Users${filter('meta.version eq "W/\\"1\\""')}`), 'invalidFilter');
    await expectError(400, send('get', `/Users${filter('meta.location sw "http"')}`), 'invalidFilter');
    await expectError(400, send('post', '/Users', user(`${'é'.repeat(600)}@acme.test`)), 'invalidValue');
    await expectError(401, send('get', '/Users', undefined, stranger));
    await expectError(404, send('get', '/Users/2819c223-7f76-453a-919d-413861904646'));
    await expectError(409, send('post', '/Users', user('ANA@acme.test')), 'uniqueness');
    await expectError(409, send('post', '/Groups', { displayName: 'STAFF MEMBERS' }), 'uniqueness');
    const [ana] = (await scim.get('/Users')).body.Resources;
    await expectError(
      412,
      scim.put(`/Users/${ana.id}`, user('ana@acme.test'), { 'If-Match': 'W/"999"' }).then((a) => {
        answers.push({ request: 'PUT /Users/{id} If-Match', answer: a });
        return a;
      }),
    );
    for (const path of ['/ServiceProviderConfig', '/ResourceTypes', '/Schemas']) {
      await expectError(405, send('post', path, {}));
      await expectError(405, send('put', `${path}`, {}));
    }
    await expectError(405, send('delete', '/ResourceTypes/User'));
    await expectError(
      501,
      send('post', '/Bulk', { schemas: ['urn:ietf:params:scim:api:messages:2.0:BulkRequest'] }),
    );
    await expectError(501, send('get', '/Me'));
    await expectError(501, send('patch', '/Me', patchOp({ op: 'replace', path: 'title', value: 'x' })));
  });

  it('every answer above has an RFC shape, the scim+json type, and a 405 says what is allowed', () => {
    expect(answers.length).toBeGreaterThan(30);
    for (const { request, answer } of answers) {
      const schema = messageSchemaOf(answer.body ?? {});
      expect(schema, `${request}: no RFC message kind in ${JSON.stringify(answer.body)}`).toBeDefined();
      const parsed = schema?.safeParse(answer.body);
      expect(parsed?.success, `${request}: ${JSON.stringify(parsed?.error?.issues)}`).toBe(true);
      expect(answer.headers.get('content-type'), request).toMatch(/^application\/scim\+json/);
      if (answer.status === 405) expect(answer.headers.get('allow'), request).toMatch(/GET/);
    }
  });
});
