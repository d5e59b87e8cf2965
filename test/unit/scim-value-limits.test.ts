import { describe, expect, it } from 'vitest';
import { applyPatch } from '../../server/scim/patch/apply-patch.js';
import { resourceFromBody } from '../../server/scim/resource-input.js';
import type { ScimError } from '../../server/scim/scim-error.js';
import { patchOp } from '../support/scim-client.js';

/**
 * The SCIM layer's own check of what it is about to store (behind the HTTP edge's body check): each
 * unstorable or over-long string is a 400 invalidValue naming the attribute, in POST/PUT bodies and
 * in what a PATCH produces.
 */
const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
const refusal = (run: () => unknown): ScimError => {
  try {
    run();
  } catch (e) {
    return e as ScimError;
  }
  throw new Error('expected a refusal');
};
const body = (more: Record<string, unknown>) => ({ userName: 'ana', ...more });

describe('stored SCIM values', () => {
  const cases: [string, Record<string, unknown>, 'User' | 'Group', RegExp][] = [
    ['NUL', body({ title: 'a\u0000' }), 'User', /^title contains a NUL character$/],
    ['high surrogate alone', body({ nickName: 'a\ud800' }), 'User', /^nickName contains an unpaired/],
    ['low surrogate alone', body({ nickName: '\udc00b' }), 'User', /^nickName contains an unpaired/],
    [
      'sub-attribute',
      body({ name: { givenName: 'x'.repeat(513) } }),
      'User',
      /^name.givenName is longer than 512/,
    ],
    [
      'multi-valued',
      body({ emails: [{ value: 'a@b' }, { value: '\u0000' }] }),
      'User',
      /^emails.value contains a NUL/,
    ],
    [
      'extension',
      body({ [ENTERPRISE]: { department: '\ud800' } }),
      'User',
      new RegExp(`^${ENTERPRISE}:department`),
    ],
    ['externalId', body({ externalId: 'e'.repeat(513) }), 'User', /^externalId is longer than 512/],
    ['group name', { displayName: 'g'.repeat(513) }, 'Group', /^displayName is longer than 512/],
    [
      'member display',
      { displayName: 'G', members: [{ value: 'x', display: 'd\u0000' }] },
      'Group',
      /^members.display/,
    ],
  ];
  it.each(cases)('refuses %s as invalidValue naming the attribute', (_name, input, type, detail) => {
    const e = refusal(() => resourceFromBody(input, type));
    expect(e).toMatchObject({ status: 400, scimType: 'invalidValue' });
    expect(e.detail).toMatch(detail);
  });

  it('counts characters, not UTF-16 units: 512 emoji fit the 512 limit', () => {
    const emoji = '😀'.repeat(512);
    expect(resourceFromBody(body({ userName: emoji }), 'User').userName).toBe(emoji);
    expect(refusal(() => resourceFromBody(body({ userName: `${emoji}x` }), 'User')).detail).toMatch(/512/);
  });

  it('checks what a PATCH writes, not what was stored before the limits', () => {
    const stored = { schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], userName: 'u'.repeat(600) };
    const deactivated = applyPatch(stored, patchOp({ op: 'replace', value: { active: false } }), 'User');
    expect(deactivated.resource.active).toBe(false);
    const e = refusal(() =>
      applyPatch(stored, patchOp({ op: 'add', path: 'displayName', value: 'd'.repeat(513) }), 'User'),
    );
    expect(e).toMatchObject({
      scimType: 'invalidValue',
      detail: expect.stringMatching(/displayName is longer/),
    });
  });
});
