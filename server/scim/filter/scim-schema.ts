/**
 * The attributes a filter or `sortBy` may name (RFC 7643 sections 3.1, 4.1, 4.2 and 4.3), with the
 * characteristics the translation honours and where each is stored. Anything not listed is unknown and
 * matches nothing; what is listed but cannot be compared (`meta.version`, `$ref`) is 400 invalidFilter; `password` is left out on purpose, as it is never stored and never returned.
 */

export type AttributeType = 'string' | 'boolean' | 'dateTime' | 'reference' | 'binary' | 'complex';

/** Where a value lives when it is not at its own key of the `resource` jsonb. */
export type Storage =
  | { column: string; uuid?: boolean }
  /** the same for every row, e.g. `meta.resourceType` */
  | { constant: string }
  /** multi-valued attributes kept outside `resource`: see attribute-resolver.ts */
  | { source: 'schemas' | 'groupsOfUser' | 'membersOfGroup' }
  /** computed per response (from the version or the base URL): a filter on it is 400 invalidFilter */
  | { unsupported: true };

export interface AttributeDef {
  name: string;
  type: AttributeType;
  /** RFC 7643 section 2.2: false unless the schema says otherwise */
  caseExact?: boolean;
  multiValued?: boolean;
  subAttributes?: readonly AttributeDef[];
  storage?: Storage;
}

export interface SchemaDef {
  urn: string;
  /** the key of `resource` holding this extension's attributes; core attributes sit at the top */
  resourceKey?: string;
  attributes: readonly AttributeDef[];
}

export type ResourceType = 'User' | 'Group';

const str = (name: string, more: Partial<AttributeDef> = {}): AttributeDef => ({
  name,
  type: 'string',
  ...more,
});
const column = (name: string, columnName: string, more: Partial<AttributeDef> = {}) =>
  str(name, { storage: { column: columnName }, ...more });

/** emails, phoneNumbers, ims, photos, entitlements, roles: a value and its labels. */
const labelled = (name: string, value: AttributeDef = str('value')): AttributeDef => ({
  name,
  type: 'complex',
  multiValued: true,
  subAttributes: [value, str('display'), str('type'), { name: 'primary', type: 'boolean' }],
});

/** id, externalId and meta are common to every resource (RFC 7643 section 3.1). */
const common = (resourceType: ResourceType): AttributeDef[] => [
  column('id', 'id', { caseExact: true, storage: { column: 'id', uuid: true } }),
  column('externalId', 'external_id', { caseExact: true }),
  {
    name: 'meta',
    type: 'complex',
    subAttributes: [
      str('resourceType', { caseExact: true, storage: { constant: resourceType } }),
      { name: 'created', type: 'dateTime', storage: { column: 'created_at' } },
      { name: 'lastModified', type: 'dateTime', storage: { column: 'updated_at' } },
      str('location', { caseExact: true, storage: { unsupported: true } }),
      str('version', { caseExact: true, storage: { unsupported: true } }),
    ],
  },
  { name: 'schemas', type: 'reference', caseExact: false, multiValued: true, storage: { source: 'schemas' } },
];

export const USER_SCHEMA_URN = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const GROUP_SCHEMA_URN = 'urn:ietf:params:scim:schemas:core:2.0:Group';
export const ENTERPRISE_USER_URN = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';

const userCore: SchemaDef = {
  urn: USER_SCHEMA_URN,
  attributes: [
    ...common('User'),
    column('userName', 'user_name'),
    {
      name: 'name',
      type: 'complex',
      subAttributes: [
        str('formatted'),
        column('familyName', 'family_name'),
        column('givenName', 'given_name'),
        str('middleName'),
        str('honorificPrefix'),
        str('honorificSuffix'),
      ],
    },
    column('displayName', 'display_name'),
    ...['nickName', 'title', 'userType', 'preferredLanguage', 'locale', 'timezone'].map((n) => str(n)),
    { name: 'profileUrl', type: 'reference' },
    { name: 'active', type: 'boolean', storage: { column: 'active' } },
    labelled('emails'),
    labelled('phoneNumbers'),
    labelled('ims'),
    labelled('photos', { name: 'value', type: 'reference' }),
    {
      name: 'addresses',
      type: 'complex',
      multiValued: true,
      subAttributes: [
        ...['formatted', 'streetAddress', 'locality', 'region', 'postalCode', 'country', 'type'].map((n) =>
          str(n),
        ),
        { name: 'primary', type: 'boolean' },
      ],
    },
    {
      name: 'groups',
      type: 'complex',
      multiValued: true,
      storage: { source: 'groupsOfUser' },
      subAttributes: [str('value'), { name: '$ref', type: 'reference' }, str('display'), str('type')],
    },
    labelled('entitlements'),
    labelled('roles'),
    labelled('x509Certificates', { name: 'value', type: 'binary', caseExact: true }),
  ],
};

const enterpriseUser: SchemaDef = {
  urn: ENTERPRISE_USER_URN,
  resourceKey: ENTERPRISE_USER_URN,
  attributes: [
    ...['employeeNumber', 'costCenter', 'organization', 'division', 'department'].map((n) => str(n)),
    {
      name: 'manager',
      type: 'complex',
      subAttributes: [str('value'), { name: '$ref', type: 'reference' }, str('displayName')],
    },
  ],
};

const groupCore: SchemaDef = {
  urn: GROUP_SCHEMA_URN,
  attributes: [
    ...common('Group'),
    column('displayName', 'display_name'),
    {
      name: 'members',
      type: 'complex',
      multiValued: true,
      storage: { source: 'membersOfGroup' },
      subAttributes: [str('value'), { name: '$ref', type: 'reference' }, str('display'), str('type')],
    },
  ],
};

/** The core schema first: an unprefixed name is looked up there before the extensions. */
export const SCHEMAS: Record<ResourceType, readonly SchemaDef[]> = {
  User: [userCore, enterpriseUser],
  Group: [groupCore],
};

export const findAttribute = (list: readonly AttributeDef[] | undefined, name: string) =>
  list?.find((a) => a.name.toLowerCase() === name.toLowerCase());
