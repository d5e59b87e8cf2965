import { describe, expect, it } from 'vitest';
import { DcqlQuery } from '../../contract/oid4vp/dcql-query.js';
import {
  buildDcqlForVct,
  type PresentationErrorCode,
  verifyVpToken,
} from '../../server/oid4vp/verification/index.js';
import {
  checkCredentialSets,
  checkRequestedClaims,
  selectClaims,
} from '../../server/oid4vp/verification/match-dcql.js';
import { all, context, EMPLOYEE, issue, named, present, VCT } from '../support/oid4vp-fixtures.js';

/** DCQL (OID4VP 1.0 §6, §7): claims path pointers, value matching, claim_sets, credential_sets. */

/** The DCQL examples of OID4VP 1.0 (examples/query_lang/*.json), verbatim. */
const EXAMPLES = {
  simple: {
    credentials: [
      {
        id: 'my_credential',
        format: 'dc+sd-jwt',
        meta: { vct_values: ['https://credentials.example.com/identity_credential'] },
        claims: [
          { path: ['family_name'] },
          { path: ['given_name'] },
          { path: ['address', 'street_address'] },
        ],
      },
    ],
  },
  claims_alternatives: {
    credentials: [
      {
        id: 'pid',
        format: 'dc+sd-jwt',
        meta: { vct_values: ['https://credentials.example.com/identity_credential'] },
        claims: [
          { id: 'a', path: ['family_name'] },
          { id: 'b', path: ['postal_code'] },
          { id: 'c', path: ['locality'] },
          { id: 'd', path: ['region'] },
          { id: 'e', path: ['date_of_birth'] },
        ],
        claim_sets: [
          ['a', 'c', 'd', 'e'],
          ['a', 'b', 'e'],
        ],
      },
    ],
  },
  credentials_alternatives: {
    credentials: [
      {
        id: 'pid',
        format: 'dc+sd-jwt',
        meta: { vct_values: ['https://credentials.example.com/identity_credential'] },
        claims: [
          { path: ['given_name'] },
          { path: ['family_name'] },
          { path: ['address', 'street_address'] },
        ],
      },
      {
        id: 'other_pid',
        format: 'dc+sd-jwt',
        meta: { vct_values: ['https://othercredentials.example/pid'] },
        claims: [
          { path: ['given_name'] },
          { path: ['family_name'] },
          { path: ['address', 'street_address'] },
        ],
      },
      {
        id: 'pid_reduced_cred_1',
        format: 'dc+sd-jwt',
        meta: { vct_values: ['https://credentials.example.com/reduced_identity_credential'] },
        claims: [{ path: ['family_name'] }, { path: ['given_name'] }],
      },
      {
        id: 'pid_reduced_cred_2',
        format: 'dc+sd-jwt',
        meta: { vct_values: ['https://cred.example/residence_credential'] },
        claims: [{ path: ['postal_code'] }, { path: ['locality'] }, { path: ['region'] }],
      },
      {
        id: 'nice_to_have',
        format: 'dc+sd-jwt',
        meta: { vct_values: ['https://company.example/company_rewards'] },
        claims: [{ path: ['rewards_number'] }],
      },
    ],
    credential_sets: [
      { options: [['pid'], ['other_pid'], ['pid_reduced_cred_1', 'pid_reduced_cred_2']] },
      { required: false, options: [['nice_to_have']] },
    ],
  },
  value_matching_simple: {
    credentials: [
      {
        id: 'my_credential',
        format: 'dc+sd-jwt',
        meta: { vct_values: ['https://credentials.example.com/identity_credential'] },
        claims: [
          { path: ['family_name'], values: ['Doe'] },
          { path: ['given_name'] },
          { path: ['address', 'street_address'] },
          { path: ['postal_code'], values: ['90210', '90211'] },
        ],
      },
    ],
  },
  multi_credentials: {
    credentials: [
      {
        id: 'pid',
        format: 'dc+sd-jwt',
        meta: { vct_values: ['https://credentials.example.com/identity_credential'] },
        claims: [
          { path: ['given_name'] },
          { path: ['family_name'] },
          { path: ['address', 'street_address'] },
        ],
      },
      {
        id: 'mdl',
        format: 'mso_mdoc',
        meta: { doctype_value: 'org.iso.7367.1.mVRC' },
        claims: [
          { path: ['org.iso.7367.1', 'vehicle_holder'] },
          { path: ['org.iso.18013.5.1', 'given_name'] },
        ],
      },
    ],
  },
};
// biome-ignore lint/suspicious/noExplicitAny: the examples are read as plain JSON
const example = (name: keyof typeof EXAMPLES): any => structuredClone(EXAMPLES[name]);

const arthur = {
  name: 'Arthur Dent',
  address: { street_address: '42 Market Street', locality: 'Milliways', postal_code: '12345' },
  degrees: [
    { type: 'Bachelor of Science', university: 'University of Betelgeuse' },
    { type: 'Master of Science', university: 'University of Betelgeuse' },
  ],
  nationalities: ['British', 'Betelgeusian'],
};

const codeOf = (fn: () => unknown): PresentationErrorCode | undefined => {
  try {
    fn();
    return undefined;
  } catch (e) {
    return (e as { code: PresentationErrorCode }).code;
  }
};

describe('claims path pointers (§7.3 example)', () => {
  it('select as the spec says', () => {
    expect(selectClaims(arthur, ['name'])).toEqual(['Arthur Dent']);
    expect(selectClaims(arthur, ['address'])).toEqual([arthur.address]);
    expect(selectClaims(arthur, ['address', 'street_address'])).toEqual(['42 Market Street']);
    expect(selectClaims(arthur, ['degrees', null, 'type'])).toEqual([
      'Bachelor of Science',
      'Master of Science',
    ]);
    expect(selectClaims(arthur, ['nationalities', 1])).toEqual(['Betelgeusian']);
  });

  it('return an error for missing claims and components of the wrong kind', () => {
    expect(selectClaims(arthur, ['birthdate'])).toBeUndefined();
    expect(selectClaims(arthur, ['nationalities', 5])).toBeUndefined();
    expect(selectClaims(arthur, ['name', 0])).toBeUndefined();
    expect(selectClaims(arthur, ['address', null])).toBeUndefined();
    expect(selectClaims(arthur, ['degrees', 'type'])).toBeUndefined();
    expect(selectClaims(arthur, ['toString'])).toBeUndefined();
    expect(selectClaims(arthur, ['__proto__'])).toBeUndefined();
    expect(selectClaims(arthur, [-1 as never])).toBeUndefined();
  });
});

describe('requested claims', () => {
  const q = (claims: unknown, claimSets?: string[][]) =>
    DcqlQuery.parse({
      credentials: [
        { id: 'c', format: 'dc+sd-jwt', meta: { vct_values: [VCT] }, claims, claim_sets: claimSets },
      ],
    }).credentials[0] as DcqlQuery['credentials'][number];

  it('matches values by type and value', () => {
    const byValue = q(example('value_matching_simple').credentials[0].claims);
    const person = {
      family_name: 'Doe',
      given_name: 'John',
      address: { street_address: 'x' },
      postal_code: '90210',
    };
    expect(checkRequestedClaims(person, byValue)).toHaveLength(4);
    expect(codeOf(() => checkRequestedClaims({ ...person, postal_code: 90210 }, byValue))).toBe(
      'missing_claims',
    );
    expect(codeOf(() => checkRequestedClaims({ ...person, family_name: 'Dent' }, byValue))).toBe(
      'missing_claims',
    );
    expect(
      checkRequestedClaims(arthur, q([{ path: ['degrees', null, 'type'], values: ['Master of Science'] }])),
    ).toHaveLength(1);
    expect(checkRequestedClaims({ active: true }, q([{ path: ['active'], values: [true] }]))).toHaveLength(1);
    expect(
      codeOf(() => checkRequestedClaims({ active: 'true' }, q([{ path: ['active'], values: [true] }]))),
    ).toBe('missing_claims');
  });

  it('takes the first satisfiable claim set, and refuses when none is', () => {
    const { claims, claim_sets } = example('claims_alternatives').credentials[0];
    const query = q(claims, claim_sets);
    const first = checkRequestedClaims(
      { family_name: 'D', locality: 'L', region: 'R', date_of_birth: 'x' },
      query,
    );
    expect(first.map((c) => c.id)).toEqual(['a', 'c', 'd', 'e']);
    const second = checkRequestedClaims({ family_name: 'D', postal_code: 'P', date_of_birth: 'x' }, query);
    expect(second.map((c) => c.id)).toEqual(['a', 'b', 'e']);
    expect(codeOf(() => checkRequestedClaims({ family_name: 'D', postal_code: 'P' }, query))).toBe(
      'missing_claims',
    );
  });

  it('asks for nothing without claims', () => {
    expect(checkRequestedClaims({}, q(undefined))).toEqual([]);
  });
});

describe('credential sets', () => {
  const query = DcqlQuery.parse(example('credentials_alternatives'));
  const ok = (...ids: string[]) => codeOf(() => checkCredentialSets(query, new Set(ids)));

  it('need one option of every required set; optional sets need nothing', () => {
    expect(ok('pid')).toBeUndefined();
    expect(ok('other_pid', 'nice_to_have')).toBeUndefined();
    expect(ok('pid_reduced_cred_1', 'pid_reduced_cred_2')).toBeUndefined();
    expect(ok('pid_reduced_cred_1')).toBe('missing_credential');
    expect(ok('nice_to_have')).toBe('missing_credential');
  });

  it('without credential_sets, every credential query is required', () => {
    const both = DcqlQuery.parse({
      credentials: [
        { id: 'a', format: 'dc+sd-jwt', meta: { vct_values: [VCT] } },
        { id: 'b', format: 'dc+sd-jwt', meta: { vct_values: [VCT] } },
      ],
    });
    expect(codeOf(() => checkCredentialSets(both, new Set(['a'])))).toBe('missing_credential');
    expect(codeOf(() => checkCredentialSets(both, new Set(['a', 'b'])))).toBeUndefined();
  });

  it('let verifyVpToken accept one alternative', async () => {
    const query: DcqlQuery = {
      credentials: [
        { id: 'employee', format: 'dc+sd-jwt', meta: { vct_values: [VCT] }, claims: [{ path: ['email'] }] },
        { id: 'visitor', format: 'dc+sd-jwt', meta: { vct_values: ['https://issuer.example/visitor'] } },
      ],
      credential_sets: [{ options: [['employee'], ['visitor']] }],
    };
    const vp = await present(await issue(), named('email'));
    const result = await verifyVpToken({ employee: [vp] }, query, context());
    expect(result.credentials.map((c) => c.queryId)).toEqual(['employee']);
  });
});

describe('buildDcqlForVct', () => {
  it('builds a valid query for one SD-JWT VC type', () => {
    const query = buildDcqlForVct(VCT, [['email'], ['address', 'street']]);
    expect(query).toEqual({
      credentials: [
        {
          id: 'credential',
          format: 'dc+sd-jwt',
          meta: { vct_values: [VCT] },
          claims: [{ path: ['email'] }, { path: ['address', 'street'] }],
        },
      ],
    });
    expect(DcqlQuery.safeParse(query).success).toBe(true);
    expect(buildDcqlForVct(VCT, [], 'employee').credentials[0]).toEqual({
      id: 'employee',
      format: 'dc+sd-jwt',
      meta: { vct_values: [VCT] },
    });
  });

  it('is what verifyVpToken checks against', async () => {
    const vp = await present(await issue(), all);
    const result = await verifyVpToken(
      { credential: [vp] },
      buildDcqlForVct(VCT, [['roles', null]]),
      context(),
    );
    expect(result.credentials[0]?.claims.roles).toEqual(EMPLOYEE.roles);
  });
});

describe('the DcqlQuery schema', () => {
  it('accepts the spec examples', () => {
    for (const [name, query] of Object.entries(EXAMPLES))
      expect(DcqlQuery.safeParse(query).success, name).toBe(true);
  });

  it('refuses what the spec forbids', () => {
    const base = { id: 'c', format: 'dc+sd-jwt', meta: { vct_values: [VCT] } };
    const bad = [
      { credentials: [] },
      { credentials: [{ ...base, id: 'has space' }] },
      { credentials: [base, base] },
      { credentials: [{ ...base, meta: {} }] },
      { credentials: [{ ...base, format: 'jwt_vc_json', meta: {} }] },
      { credentials: [{ ...base, claims: [{ path: [] }] }] },
      { credentials: [{ ...base, claims: [{ path: ['a'] }], claim_sets: [['x']] }] },
      {
        credentials: [{ ...base, claims: [{ id: 'x', path: ['a'] }, { path: ['b'] }], claim_sets: [['x']] }],
      },
      { credentials: [{ ...base, claim_sets: [['x']] }] },
      { credentials: [base], credential_sets: [{ options: [['nope']] }] },
    ];
    for (const query of bad) expect(DcqlQuery.safeParse(query).success, JSON.stringify(query)).toBe(false);
  });

  it('makes verifyVpToken throw a TypeError for an invalid query (the caller’s bug)', async () => {
    await expect(verifyVpToken({}, { credentials: [] } as unknown as DcqlQuery, context())).rejects.toThrow(
      TypeError,
    );
  });

  it('parses other formats, whose presentations are refused as unsupported', async () => {
    const mdoc: DcqlQuery = {
      credentials: [{ id: 'mdl', format: 'mso_mdoc', meta: { doctype_value: 'org.iso.18013.5.1.mDL' } }],
    };
    await expect(verifyVpToken({ mdl: ['o2d2ZXJzaW9u'] }, mdoc, context())).rejects.toMatchObject({
      code: 'unsupported_format',
    });
  });
});
