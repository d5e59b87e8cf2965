import { randomUUID } from 'node:crypto';
import { MikroORM } from '@mikro-orm/postgresql';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { filterToSql, parseFilter, type ResourceType, sortToSql } from '../../server/scim/filter/index.js';
import { ScimError } from '../../server/scim/scim-error.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';

const ENT = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';

interface UserRow {
  userName: string;
  externalId?: string;
  active?: boolean;
  displayName?: string;
  givenName?: string;
  familyName?: string;
  created?: string;
  updated?: string;
  resource?: Record<string, unknown>;
}

/** The acme tenant's users; every filter below is asserted against exactly this set. */
const USERS = {
  bjensen: {
    userName: 'bjensen@example.com',
    externalId: 'EXT-1',
    displayName: 'Barbara Jensen',
    givenName: 'Barbara',
    familyName: 'Jensen',
    created: '2024-01-01T00:00:00Z',
    updated: '2024-06-01T12:00:00.123Z',
    resource: {
      name: { formatted: 'Ms. Barbara J Jensen III' },
      nickName: 'Babs',
      title: 'Tour Guide',
      userType: 'Employee',
      emails: [
        { value: 'bjensen@example.com', type: 'work', primary: true },
        { value: 'babs@jensen.org', type: 'home' },
      ],
      phoneNumbers: [{ value: '555-555-8377', type: 'work' }],
      [ENT]: { employeeNumber: '701984', department: 'Tour Operations', manager: { value: 'MGR-7' } },
    },
  },
  jsmith: {
    userName: 'JSmith@Example.COM',
    externalId: 'ext-1',
    displayName: 'John Smith',
    givenName: 'John',
    familyName: 'Smith',
    created: '2024-02-01T00:00:00Z',
    resource: {
      title: 'Manager',
      userType: 'Employee',
      emails: [{ value: 'John.Smith@EXAMPLE.com', type: 'Work', primary: true }],
      [ENT]: { employeeNumber: '1001', department: 'Sales' },
    },
  },
  omalley: {
    userName: 'pat.omalley',
    active: false,
    displayName: "Pat O'Malley",
    givenName: 'Pat',
    familyName: "O'Malley",
    created: '2024-03-01T00:00:00Z',
    resource: {
      title: '',
      userType: 'Intern',
      emails: [{ value: 'pat@example.org', type: 'work' }],
      ims: [{ value: 'pat@foo.com', type: 'xmpp' }],
    },
  },
  jdoe: {
    userName: 'jdoe',
    givenName: 'Jane',
    familyName: 'Doe',
    created: '2023-12-31T23:59:59.999Z',
    resource: {
      userType: 'Contractor',
      emails: [
        { value: 'jane@example.com', type: 'home', primary: true },
        { value: 'jane.doe@work.test', type: 'work', primary: false },
      ],
      addresses: [{ postalCode: '91608', locality: 'Hollywood', type: 'work', primary: true }],
    },
  },
  erin: {
    userName: 'erin',
    resource: {
      userType: 'Employee',
      emails: [
        { value: 'erin@example.com', type: 'home' },
        { value: 'erin@corp.test', type: 'work', primary: true },
      ],
    },
  },
  under: {
    userName: 'under_score',
    resource: { emails: [{ value: 'under_score@wild.test', type: 'work' }] },
  },
  underx: { userName: 'underXscore', resource: { emails: [{ value: 'underXscore@wild.test' }] } },
  percent: { userName: '100%done', resource: { emails: [{ value: '100%done@wild.test' }] } },
  hundred: { userName: '100xdone' },
  backslash: { userName: 'back\\slash' },
  backx: { userName: 'backXslash' },
  nobody: { userName: 'nobody', resource: {} },
  grace: {
    userName: 'grace',
    externalId: 'Ext-2',
    created: '2024-06-01T12:00:00.123456Z',
    resource: { userType: 'employee' },
  },
  heidi: {
    userName: 'heidi',
    active: false,
    resource: { emails: 'not-an-array', name: { formatted: 'Heidi H' } },
  },
  ivan: {
    userName: 'ivan',
    resource: {
      roles: [{ value: 'admin' }],
      entitlements: [{ value: 'VPN' }],
      x509Certificates: [{ value: 'MIIDQzCCAqygAwIBAgICEAAwDQ' }],
      [ENT]: { employeeNumber: '2002', manager: { value: 'mgr-7' } },
    },
  },
  judy: {
    userName: 'judy',
    resource: { locale: 'en-US', timezone: 'Europe/Madrid', profileUrl: 'https://example.com/judy' },
  },
  robert: { userName: "robert'); drop table scim_user;--" },
  zed: { userName: 'ZED' },
  quoter: { userName: 'quote"user' },
} satisfies Record<string, UserRow>;

type UserKey = keyof typeof USERS;
const ALL = Object.keys(USERS) as UserKey[];
const except = (...keys: UserKey[]) => ALL.filter((k) => !keys.includes(k));
const ids: Record<string, string> = Object.fromEntries(
  [...ALL, 'globexJensen', 'admins', 'guides', 'empty', 'globexAdmins'].map((k) => [k, randomUUID()]),
);
const keyOf = (id: string) => Object.entries(ids).find(([, v]) => v === id)?.[0] ?? id;

let database: TestDatabase;
let db: pg.Client;
let orm: MikroORM;

beforeAll(async () => {
  database = await createTestDatabase();
  db = new pg.Client({ connectionString: database.url });
  await db.connect();
  await db.query(`
    create table scim_user (id uuid primary key, tenant_id text not null, user_name text not null,
      external_id text, active boolean not null, display_name text, given_name text, family_name text,
      resource jsonb not null, created_at timestamptz not null, updated_at timestamptz not null,
      version integer not null default 1);
    create unique index scim_user_user_name on scim_user (tenant_id, lower(user_name));
    create table scim_group (id uuid primary key, tenant_id text not null, display_name text not null,
      external_id text, resource jsonb not null, created_at timestamptz not null,
      updated_at timestamptz not null, version integer not null default 1);
    create table scim_group_member (group_id uuid not null references scim_group (id),
      user_id uuid not null references scim_user (id), display text, primary key (group_id, user_id));
    create index scim_group_member_user on scim_group_member (user_id);`);
  const insertUser = (id: string, tenant: string, u: UserRow) =>
    db.query(
      `insert into scim_user (id, tenant_id, user_name, external_id, active, display_name, given_name,
         family_name, resource, created_at, updated_at) values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
      [
        id,
        tenant,
        u.userName,
        u.externalId ?? null,
        u.active ?? true,
        u.displayName ?? null,
        u.givenName ?? null,
        u.familyName ?? null,
        { schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], userName: u.userName, ...u.resource },
        u.created ?? '2024-05-01T00:00:00Z',
        u.updated ?? u.created ?? '2024-05-01T00:00:00Z',
      ],
    );
  for (const key of ALL) await insertUser(ids[key] as string, 'acme', USERS[key]);
  await insertUser(ids.globexJensen as string, 'globex', {
    userName: 'bjensen@example.com',
    externalId: 'EXT-1',
  });
  const groups: [string, string, string, string | null, string, string[]][] = [
    ['admins', 'acme', 'Admins', 'G-1', '2024-01-01T00:00:00Z', ['bjensen', 'jsmith', 'globexJensen']],
    ['guides', 'acme', 'Tour Guides', null, '2024-02-01T00:00:00Z', ['bjensen']],
    ['empty', 'acme', 'Empty Group', null, '2024-03-01T00:00:00Z', []],
    ['globexAdmins', 'globex', 'Admins', 'G-1', '2024-01-01T00:00:00Z', ['globexJensen']],
  ];
  for (const [key, tenant, displayName, externalId, created, members] of groups) {
    await db.query(
      `insert into scim_group (id, tenant_id, display_name, external_id, resource, created_at, updated_at)
       values ($1, $2, $3, $4, $5, $6, $6)`,
      [ids[key], tenant, displayName, externalId, { displayName }, created],
    );
    for (const m of members)
      await db.query('insert into scim_group_member values ($1, $2)', [ids[key], ids[m]]);
  }
  // A member's display as the client gave it, which the group shows instead of the user's displayName.
  await db.query('update scim_group_member set display = $1 where group_id = $2 and user_id = $3', [
    'Babs J.',
    ids.guides,
    ids.bjensen,
  ]);
  orm = await MikroORM.init({
    clientUrl: database.url,
    entities: [],
    discovery: { warnWhenNoEntities: false },
    allowGlobalContext: false,
    logger: () => undefined,
  });
});

afterAll(async () => {
  await orm?.close();
  await db?.end();
  await database?.drop();
});

const TABLES = { User: 'scim_user u', Group: 'scim_group g' };
const ALIASES = { User: 'u', Group: 'g' };

/**
 * The keys of the rows `filter` selects in `tenant`, run twice: with `$n` placeholders through
 * node-postgres and with `?` placeholders through MikroORM's em.execute. Both must agree.
 */
async function matching(resourceType: ResourceType, filter: string, tenant = 'acme'): Promise<string[]> {
  const node = parseFilter(filter);
  const [table, alias] = [TABLES[resourceType], ALIASES[resourceType]];
  const numbered = filterToSql(node, resourceType, alias, 2);
  const select = `select id from ${table} where ${alias}.tenant_id =`;
  const viaPg = await db.query(`${select} $1 and ${numbered.sql}`, [tenant, ...numbered.params]);
  const marked = filterToSql(node, resourceType, alias);
  const viaOrm = await orm.em
    .fork()
    .execute<{ id: string }[]>(`${select} ? and ${marked.sql}`, [tenant, ...marked.params]);
  const keys = (rows: { id: string }[]) => rows.map((r) => keyOf(r.id)).sort();
  expect(keys(viaOrm)).toEqual(keys(viaPg.rows));
  return keys(viaPg.rows);
}

const users = (filter: string, tenant?: string) => matching('User', filter, tenant);
const sorted = (keys: string[]) => [...keys].sort();

function rejection(resourceType: ResourceType, filter: string): ScimError {
  try {
    filterToSql(parseFilter(filter), resourceType, 'u');
  } catch (e) {
    if (e instanceof ScimError) return e;
    throw e;
  }
  throw new Error(`expected ${filter} to be rejected`);
}

const userCases: [string, UserKey[]][] = [
  // equality, case-insensitive where RFC 7643 says caseExact false
  ['userName eq "bjensen@example.com"', ['bjensen']],
  ['userName eq "BJENSEN@EXAMPLE.COM"', ['bjensen']],
  ['USERNAME EQ "jsmith@example.com"', ['jsmith']],
  ['urn:ietf:params:scim:schemas:core:2.0:User:userName eq "JDOE"', ['jdoe']],
  [`userName eq "${randomUUID()}"`, []],
  ['displayName eq "barbara jensen"', ['bjensen']],
  ['nickName eq "BABS"', ['bjensen']],
  ['emails.value eq "JOHN.SMITH@example.com"', ['jsmith']],
  ['emails eq "bjensen@EXAMPLE.com"', ['bjensen']],
  ['ims.type eq "XMPP"', ['omalley']],
  ['userName eq "quote\\"user"', ['quoter']],
  // case-exact: id, externalId, meta.*
  ['externalId eq "EXT-1"', ['bjensen']],
  ['externalId eq "ext-1"', ['jsmith']],
  ['externalId eq "Ext-1"', []],
  ['EXTERNALID eq "Ext-2"', ['grace']],
  [`externalId eq "${randomUUID()}"`, []],
  [`id eq "${ids.bjensen}"`, ['bjensen']],
  [`id eq "${ids.bjensen?.toUpperCase()}"`, ['bjensen']],
  [`id ne "${ids.bjensen}"`, except('bjensen')],
  [`id sw "${ids.jdoe?.slice(0, 13)}"`, ['jdoe']],
  ['id eq "not-a-uuid"', []],
  ['id ne "not-a-uuid"', ALL],
  ['x509Certificates.value eq "miidqzccaqygawibagiceaawdq"', []],
  ['x509Certificates.value eq "MIIDQzCCAqygAwIBAgICEAAwDQ"', ['ivan']],
  // co / sw / ew, with LIKE wildcards in the value taken literally
  ['name.familyName co "O\'Malley"', ['omalley']],
  ['name.givenName sw "j"', ['jdoe', 'jsmith']],
  ['emails co "example.com"', ['bjensen', 'erin', 'jdoe', 'jsmith']],
  ['emails.value co "example.org"', ['omalley']],
  ['userName co "_"', ['robert', 'under']],
  ['userName sw "under_"', ['under']],
  ['userName co "%"', ['percent']],
  ['userName sw "100%"', ['percent']],
  ['userName co "\\\\"', ['backslash']],
  ['userName co "k\\\\s"', ['backslash']],
  ['userName ew "SLASH"', ['backslash', 'backx']],
  ['externalId sw "ext"', ['jsmith']],
  ['externalId sw "EXT"', ['bjensen']],
  ['externalId co "xt-"', ['grace', 'jsmith']],
  ['profileUrl sw "HTTPS://example.com"', ['judy']],
  // gt / ge / lt / le on strings: code-point order, folded unless caseExact
  ['userName gt "x"', ['zed']],
  ['userName lt "b"', ['hundred', 'percent']],
  ['userName ge "under_score"', ['under', 'underx', 'zed']],
  ['userName le "BACKXSLASH"', ['backslash', 'backx', 'hundred', 'percent']],
  ['externalId gt "E"', ['bjensen', 'grace', 'jsmith']],
  ['externalId lt "a"', ['bjensen', 'grace']],
  // dateTime: compared as timestamps, to the millisecond that meta renders
  ['meta.created lt "2024-01-01T00:00:00Z"', ['jdoe']],
  ['meta.created le "2024-01-01T00:00:00Z"', ['bjensen', 'jdoe']],
  ['meta.created eq "2024-01-01T01:00:00+01:00"', ['bjensen']],
  ['meta.created eq "2024-06-01T12:00:00.123Z"', ['grace']],
  ['meta.created gt "2024-06-01T12:00:00.123Z"', []],
  ['meta.created ge "2024-06-01T12:00:00.123Z"', ['grace']],
  ['meta.created gt "2024-04-30T00:00:00"', except('bjensen', 'jsmith', 'omalley', 'jdoe')],
  ['meta.created ne "2024-05-01T00:00:00Z"', ['bjensen', 'grace', 'jdoe', 'jsmith', 'omalley']],
  ['meta.lastModified gt "2024-05-31T00:00:00Z"', ['bjensen', 'grace']],
  ['meta.lastModified gt "2011-05-13T04:42:34Z"', ALL],
  ['meta.resourceType eq "User"', ALL],
  // booleans, pr and null
  ['active eq false', ['heidi', 'omalley']],
  ['active ne true', ['heidi', 'omalley']],
  ['active eq true', except('heidi', 'omalley')],
  ['active pr', ALL],
  ['title pr', ['bjensen', 'jsmith']],
  ['title eq ""', ['omalley']],
  ['title ne "Manager"', except('jsmith')],
  ['not (title eq "Manager")', except('jsmith')],
  ['displayName pr', ['bjensen', 'jsmith', 'omalley']],
  ['displayName eq null', except('bjensen', 'jsmith', 'omalley')],
  ['displayName ne null', ['bjensen', 'jsmith', 'omalley']],
  ['externalId eq null', except('bjensen', 'jsmith', 'grace')],
  ['name pr', ['bjensen', 'heidi', 'jdoe', 'jsmith', 'omalley']],
  ['name.formatted pr', ['bjensen', 'heidi']],
  ['emails pr', ['bjensen', 'erin', 'jdoe', 'jsmith', 'omalley', 'percent', 'under', 'underx']],
  ['emails eq null', except('bjensen', 'erin', 'jdoe', 'jsmith', 'omalley', 'percent', 'under', 'underx')],
  ['timezone pr', ['judy']],
  // logic, with the RFC's own examples
  ['title pr and userType eq "Employee"', ['bjensen', 'jsmith']],
  ['title pr or userType eq "Intern"', ['bjensen', 'jsmith', 'omalley']],
  [
    'userType eq "Employee" and (emails co "example.com" or emails.value co "example.org")',
    ['bjensen', 'erin', 'jsmith'],
  ],
  [
    'userType ne "Employee" and not (emails co "example.com" or emails.value co "example.org")',
    except('bjensen', 'jsmith', 'erin', 'grace', 'omalley', 'jdoe'),
  ],
  ['userType eq "Employee" and (emails.type eq "work")', ['bjensen', 'erin', 'jsmith']],
  ['active eq false or userName eq "ivan" and title pr', ['heidi', 'omalley']],
  ['(active eq false or userName eq "ivan") and not (title pr)', ['heidi', 'ivan', 'omalley']],
  // value paths: one and the same value must satisfy the whole bracket
  ['userType eq "Employee" and emails[type eq "work" and value co "@example.com"]', ['bjensen', 'jsmith']],
  ['emails.type eq "work" and emails.value co "@example.com"', ['bjensen', 'erin', 'jdoe', 'jsmith']],
  [
    'emails[type eq "work" and value co "@example.com"] or ims[type eq "xmpp" and value co "@foo.com"]',
    ['bjensen', 'jsmith', 'omalley'],
  ],
  ['emails[type eq "work"].value ew ".test"', ['erin', 'jdoe', 'under']],
  ['emails[primary eq true]', ['bjensen', 'erin', 'jdoe', 'jsmith']],
  ['emails[primary eq false]', ['jdoe']],
  ['emails[not (primary eq true)]', ['bjensen', 'erin', 'jdoe', 'omalley', 'percent', 'under', 'underx']],
  ['emails[value eq null]', []],
  ['phoneNumbers[type eq "work" and value sw "555"]', ['bjensen']],
  ['addresses[postalCode eq "91608"]', ['jdoe']],
  ['addresses.locality co "WOOD"', ['jdoe']],
  ['roles.value eq "ADMIN"', ['ivan']],
  ['entitlements eq "vpn"', ['ivan']],
  // the enterprise extension, with and without its URN
  [`${ENT}:employeeNumber eq "701984"`, ['bjensen']],
  ['employeeNumber eq "1001"', ['jsmith']],
  [`${ENT.toLowerCase()}:EMPLOYEENUMBER eq "2002"`, ['ivan']],
  [`${ENT}:manager.value eq "mgr-7"`, ['bjensen', 'ivan']],
  [`${ENT}:manager eq "MGR-7"`, ['bjensen', 'ivan']],
  [`${ENT}:manager[value eq "mgr-7"]`, ['bjensen', 'ivan']],
  [`${ENT}:manager pr`, ['bjensen', 'ivan']],
  [`${ENT}:department sw "tour"`, ['bjensen']],
  ['urn:ietf:params:scim:schemas:core:2.0:User:employeeNumber eq "701984"', []],
  [`schemas eq "${ENT}"`, ['bjensen', 'ivan', 'jsmith']],
  ['schemas eq "urn:ietf:params:scim:schemas:core:2.0:User"', ALL],
  // groups, through scim_group_member
  [`groups[value eq "${ids.admins}"]`, ['bjensen', 'jsmith']],
  [`groups.value eq "${ids.guides}"`, ['bjensen']],
  ['groups.display eq "admins"', ['bjensen', 'jsmith']],
  ['groups.type eq "direct"', ['bjensen', 'jsmith']],
  ['groups pr', ['bjensen', 'jsmith']],
  ['groups.value eq "not-a-uuid"', []],
  // unknown attributes match nothing, and so their negation matches everything
  ['foo eq "bar"', []],
  ['not (foo eq "bar")', ALL],
  ['foo gt true', []],
  ['urn:okta:custom:1.0:User:foo eq "x"', []],
  ['emails.foo eq "x"', []],
  ['userName.foo eq "x"', []],
  ['password eq "secret"', []],
  ['foo[bar eq "x"]', []],
  // injection attempts are values like any other
  [`userName eq "x' or '1'='1"`, []],
  [`userName eq "x\\\\' or 1=1 --"`, []],
  [`emails[value eq "a') or true or ('"]`, []],
  ['userName eq "?" or userName eq "$1" or userName co "??"', []],
  [`userName co "'"`, ['robert']],
  [`userName eq "robert'); drop table scim_user;--"`, ['robert']],
];

describe('filterToSql against PostgreSQL: users', () => {
  it.each(userCases)('%s', async (filter, expected) => {
    expect(await users(filter)).toEqual(sorted(expected));
  });

  it('keeps tenants apart, in the users and in the groups they belong to', async () => {
    expect(await users('userName eq "bjensen@example.com"', 'globex')).toEqual(['globexJensen']);
    expect(await users(`groups[value eq "${ids.globexAdmins}"]`, 'globex')).toEqual(['globexJensen']);
    // a membership row across tenants (never written by the service) does not leak
    expect(await users(`groups.value eq "${ids.admins}"`, 'globex')).toEqual([]);
    expect((await db.query('select count(*)::int as n from scim_user')).rows[0].n).toBe(20);
  });
});

describe('filterToSql against PostgreSQL: groups', () => {
  const groupCases: [string, string[]][] = [
    ['displayName eq "ADMINS"', ['admins']],
    ['displayName sw "tour"', ['guides']],
    ['externalId eq "G-1"', ['admins']],
    ['externalId eq "g-1"', []],
    [`members[value eq "${ids.bjensen}"]`, ['admins', 'guides']],
    [`members.value eq "${ids.jsmith}"`, ['admins']],
    [`id eq "${ids.admins}" and members[value eq "${ids.jsmith}"]`, ['admins']],
    [`id eq "${ids.guides}" and members[value eq "${ids.jsmith}"]`, []],
    [`members[value eq "${ids.globexJensen}"]`, []],
    ['members.display eq "john smith"', ['admins']],
    ['members.display eq "babs j."', ['guides']],
    ['members.display eq "Barbara Jensen"', ['admins']],
    ['members.type eq "User"', ['admins', 'guides']],
    ['members pr', ['admins', 'guides']],
    ['not (members pr)', ['empty']],
    ['meta.resourceType eq "Group"', ['admins', 'empty', 'guides']],
    ['meta.resourceType eq "group"', []],
    ['meta.created lt "2024-02-01T00:00:00Z"', ['admins']],
    ['schemas eq "urn:ietf:params:scim:schemas:core:2.0:Group"', ['admins', 'empty', 'guides']],
    ['userName eq "bjensen@example.com"', []],
  ];
  it.each(groupCases)('%s', async (filter, expected) => {
    expect(await matching('Group', filter)).toEqual(sorted(expected));
  });
});

describe('filterToSql: misuse of known attributes is 400 invalidFilter', () => {
  const cases: [string, RegExp][] = [
    ['active eq "true"', /active is a boolean; compare it with true or false/],
    ['active gt true', /active is a boolean; only eq, ne and pr apply/],
    ['emails[primary co "t"]', /primary is a boolean/],
    ['userName gt 5', /userName is a string; compare it with a "string", not 5/],
    ['userName eq true', /userName is a string/],
    ['userName co null', /co does not apply to null/],
    ['meta.created co "2024"', /created is a dateTime; co, sw and ew do not apply/],
    ['meta.created gt "yesterday"', /"yesterday" is not one/],
    ['meta.created gt "2024-13-01T00:00:00Z"', /is not one/],
    ['meta.created gt "0000-01-01T00:00:00Z"', /is not one/],
    ['name eq "x"', /name is complex; compare one of its sub-attributes/],
    ['addresses co "x"', /addresses is complex/],
    ['userName[value eq "x"]', /userName has no sub-attributes/],
    ['schemas[value eq "x"]', /schemas has no sub-attributes/],
    // declared, but computed per response: an empty list would read as "no match"
    ['meta.version eq "W/\\"1\\""', /meta.version is not supported in filters/],
    ['meta.location co "/Users/"', /meta.location is not supported in filters/],
    ['groups.$ref pr', /groups.\$ref is not supported in filters/],
    ['not (meta.version pr)', /meta.version is not supported/],
  ];
  it.each(cases)('%s', (filter, detail) => {
    const e = rejection('User', filter);
    expect(e).toMatchObject({ status: 400, scimType: 'invalidFilter' });
    expect(e.detail).toMatch(detail);
  });
});

describe('filterToSql: generated SQL', () => {
  const hostile = `userName eq "x' or '1'='1" or emails[value co "?"] or meta.created gt "2024-01-01T00:00:00Z"`;

  it('binds every value and marks each with exactly one placeholder', () => {
    const marked = filterToSql(parseFilter(hostile), 'User', 'u');
    expect(marked.params).toEqual(["x' or '1'='1", '%?%', '2024-01-01T00:00:00.000Z']);
    expect(marked.sql).not.toMatch(/'1'|2024/);
    expect(marked.sql.split('?').length - 1).toBe(3);
    expect(marked.sql).not.toMatch(/\?\?|\\\?/);
    const numbered = filterToSql(parseFilter(hostile), 'User', 'u', 5);
    expect(numbered.sql).not.toContain('?');
    expect(numbered.sql.match(/\$\d+/g)).toEqual(['$5', '$6', '$7']);
  });

  it('refuses an alias that is not a plain identifier', () => {
    expect(() => filterToSql(parseFilter('title pr'), 'User', 'u; drop table x')).toThrow(
      /plain SQL identifier/,
    );
    expect(() => filterToSql(parseFilter('title pr'), 'User', 'u', 0)).toThrow(/positive integer/);
  });

  it('lets the indexes on lower(user_name) and group membership serve the probes Entra ID sends', async () => {
    const plan = async (resourceType: ResourceType, filter: string) => {
      const { sql, params } = filterToSql(parseFilter(filter), resourceType, ALIASES[resourceType], 2);
      await db.query('set enable_seqscan = off');
      const select = `explain select id from ${TABLES[resourceType]} where ${ALIASES[resourceType]}.tenant_id = $1`;
      const rows = (await db.query(`${select} and ${sql}`, ['acme', ...params])).rows;
      await db.query('reset enable_seqscan');
      return rows.map((r: Record<string, string>) => r['QUERY PLAN']).join('\n');
    };
    expect(await plan('User', 'userName eq "bjensen@example.com"')).toContain('scim_user_user_name');
    expect(await plan('Group', `members[value eq "${ids.bjensen}"]`)).toContain('scim_group_member_pkey');
  });
});

describe('sortToSql', () => {
  const order = async (resourceType: ResourceType, attr: string, direction = 'asc') => {
    const alias = ALIASES[resourceType];
    const expr = sortToSql(attr, resourceType, alias);
    const { rows } = await db.query(
      `select id from ${TABLES[resourceType]} where ${alias}.tenant_id = 'acme' order by ${expr} ${direction} nulls last, ${alias}.id`,
    );
    return rows.map((r: { id: string }) => keyOf(r.id));
  };

  it('sorts strings case-insensitively by code point', async () => {
    expect(await order('User', 'userName')).toEqual([
      'percent',
      'hundred',
      'backslash',
      'backx',
      'bjensen',
      'erin',
      'grace',
      'heidi',
      'ivan',
      'jdoe',
      'jsmith',
      'judy',
      'nobody',
      'omalley',
      'quoter',
      'robert',
      'under',
      'underx',
      'zed',
    ]);
    expect(await order('Group', 'DISPLAYNAME', 'desc')).toEqual(['guides', 'empty', 'admins']);
  });

  it('sorts by timestamps, extension attributes and sub-attributes, unassigned last', async () => {
    expect((await order('User', 'meta.created')).slice(0, 3)).toEqual(['jdoe', 'bjensen', 'jsmith']);
    expect((await order('User', 'meta.lastModified', 'desc')).slice(0, 2)).toEqual(['grace', 'bjensen']);
    expect((await order('User', `${ENT}:employeeNumber`)).slice(0, 3)).toEqual(['jsmith', 'ivan', 'bjensen']);
    expect((await order('User', 'name.familyName', 'desc')).slice(0, 4)).toEqual([
      'jsmith',
      'omalley',
      'bjensen',
      'jdoe',
    ]);
  });

  it('sorts a multi-valued attribute by its primary value, else its first', async () => {
    const expr = sortToSql('emails', 'User', 'u');
    const { rows } = await db.query(`select u.id, ${expr} as k from scim_user u where u.tenant_id = 'acme'`);
    const keys = Object.fromEntries(rows.map((r: { id: string; k: string | null }) => [keyOf(r.id), r.k]));
    expect(keys).toMatchObject({
      erin: 'erin@corp.test',
      bjensen: 'bjensen@example.com',
      nobody: null,
      heidi: null,
    });
    expect(keys.omalley).toBe('pat@example.org');
  });

  it.each([
    ['foo', /unknown attribute 'foo'/],
    ['emails.foo', /unknown attribute 'emails.foo'/],
    ['name', /name is complex/],
    ['groups', /groups cannot be sorted by/],
    ['schemas', /schemas cannot be sorted by/],
    ['userName eq', /not an attribute path/],
  ])('refuses sortBy=%s as 400 invalidValue', (attr, detail) => {
    expect(() => sortToSql(attr, 'User', 'u')).toThrow(ScimError);
    try {
      sortToSql(attr, 'User', 'u');
    } catch (e) {
      expect(e).toMatchObject({
        status: 400,
        scimType: 'invalidValue',
        detail: expect.stringMatching(detail),
      });
    }
  });
});
