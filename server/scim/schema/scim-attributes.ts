/**
 * The SCIM attribute definitions this service provider supports (RFC 7643 sections 2, 3.1, 4 and 8.7):
 * what the PATCH engine validates against and what `/Schemas` publishes. Names are canonical casing;
 * clients may use any casing and are mapped onto these.
 */

export type ScimAttributeType =
  | 'string'
  | 'boolean'
  | 'decimal'
  | 'integer'
  | 'dateTime'
  | 'binary'
  | 'reference'
  | 'complex';

export type ScimMutability = 'readOnly' | 'readWrite' | 'immutable' | 'writeOnly';

export interface ScimAttribute {
  readonly name: string;
  readonly type: ScimAttributeType;
  readonly multiValued: boolean;
  readonly required: boolean;
  readonly caseExact: boolean;
  readonly mutability: ScimMutability;
  readonly returned: 'always' | 'never' | 'default' | 'request';
  readonly uniqueness: 'none' | 'server' | 'global';
  readonly canonicalValues?: readonly string[];
  readonly referenceTypes?: readonly string[];
  readonly subAttributes?: readonly ScimAttribute[];
}

export interface ScimSchema {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  readonly attributes: readonly ScimAttribute[];
}

export const USER_SCHEMA_URN = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const ENTERPRISE_USER_SCHEMA_URN = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
export const GROUP_SCHEMA_URN = 'urn:ietf:params:scim:schemas:core:2.0:Group';

/** Defaults are those RFC 7643 section 2.2 gives an attribute whose definition leaves them out. */
function attribute(
  name: string,
  type: ScimAttributeType,
  options: Partial<ScimAttribute> = {},
): ScimAttribute {
  return {
    name,
    type,
    multiValued: false,
    required: false,
    caseExact: false,
    mutability: 'readWrite',
    returned: 'default',
    uniqueness: 'none',
    ...options,
  };
}

function complex(
  name: string,
  subAttributes: readonly ScimAttribute[],
  options: Partial<ScimAttribute> = {},
): ScimAttribute {
  return attribute(name, 'complex', { subAttributes, ...options });
}

function strings(...names: string[]): ScimAttribute[] {
  return names.map((name) => attribute(name, 'string'));
}

/** The value / display / type / primary shape most multi-valued User attributes share (RFC 7643 2.4). */
function typedValues(
  name: string,
  valueType: ScimAttributeType,
  types: readonly string[],
  valueOptions: Partial<ScimAttribute> = {},
): ScimAttribute {
  return complex(
    name,
    [
      attribute('value', valueType, valueOptions),
      attribute('display', 'string'),
      attribute('type', 'string', types.length > 0 ? { canonicalValues: types } : {}),
      attribute('primary', 'boolean'),
    ],
    { multiValued: true },
  );
}

const readOnly = { mutability: 'readOnly' } as const;
const exactReadOnly = { mutability: 'readOnly', caseExact: true } as const;

/** Attributes every resource has (RFC 7643 section 3.1); `schemas` is handled apart, as the RFC does. */
export const COMMON_ATTRIBUTES: readonly ScimAttribute[] = [
  attribute('id', 'string', { ...exactReadOnly, returned: 'always', uniqueness: 'server' }),
  attribute('externalId', 'string', { caseExact: true }),
  complex(
    'meta',
    [
      attribute('resourceType', 'string', exactReadOnly),
      attribute('created', 'dateTime', readOnly),
      attribute('lastModified', 'dateTime', readOnly),
      attribute('location', 'reference', { ...exactReadOnly, referenceTypes: ['uri'] }),
      attribute('version', 'string', exactReadOnly),
    ],
    readOnly,
  ),
];

// `password` is left out on purpose: this service never stores or checks user passwords.
export const USER_SCHEMA: ScimSchema = {
  id: USER_SCHEMA_URN,
  name: 'User',
  description: 'User Account',
  attributes: [
    attribute('userName', 'string', { required: true, uniqueness: 'server' }),
    complex(
      'name',
      strings('formatted', 'familyName', 'givenName', 'middleName', 'honorificPrefix', 'honorificSuffix'),
    ),
    ...strings('displayName', 'nickName'),
    attribute('profileUrl', 'reference', { referenceTypes: ['external'] }),
    ...strings('title', 'userType', 'preferredLanguage', 'locale', 'timezone'),
    attribute('active', 'boolean'),
    typedValues('emails', 'string', ['work', 'home', 'other']),
    typedValues('phoneNumbers', 'string', ['work', 'home', 'mobile', 'fax', 'pager', 'other']),
    typedValues('ims', 'string', ['aim', 'gtalk', 'icq', 'xmpp', 'msn', 'skype', 'qq', 'yahoo']),
    typedValues('photos', 'reference', ['photo', 'thumbnail'], { referenceTypes: ['external'] }),
    complex(
      'addresses',
      [
        ...strings('formatted', 'streetAddress', 'locality', 'region', 'postalCode', 'country'),
        attribute('type', 'string', { canonicalValues: ['work', 'home', 'other'] }),
        attribute('primary', 'boolean'),
      ],
      { multiValued: true },
    ),
    complex(
      'groups',
      [
        attribute('value', 'string', readOnly),
        attribute('$ref', 'reference', { ...readOnly, referenceTypes: ['User', 'Group'] }),
        attribute('display', 'string', readOnly),
        attribute('type', 'string', { ...readOnly, canonicalValues: ['direct', 'indirect'] }),
      ],
      { multiValued: true, ...readOnly },
    ),
    typedValues('entitlements', 'string', []),
    typedValues('roles', 'string', []),
    typedValues('x509Certificates', 'binary', []),
  ],
};

export const ENTERPRISE_USER_SCHEMA: ScimSchema = {
  id: ENTERPRISE_USER_SCHEMA_URN,
  name: 'EnterpriseUser',
  description: 'Enterprise User',
  attributes: [
    ...strings('employeeNumber', 'costCenter', 'organization', 'division', 'department'),
    complex('manager', [
      attribute('value', 'string'),
      attribute('$ref', 'reference', { referenceTypes: ['User'] }),
      attribute('displayName', 'string', readOnly),
    ]),
  ],
};

const immutable = { mutability: 'immutable' } as const;

export const GROUP_SCHEMA: ScimSchema = {
  id: GROUP_SCHEMA_URN,
  name: 'Group',
  description: 'Group',
  attributes: [
    // RFC 7643 4.2 calls displayName REQUIRED (the 8.7.1 listing says otherwise); Entra matches groups on it.
    attribute('displayName', 'string', { required: true }),
    complex(
      'members',
      [
        attribute('value', 'string', immutable),
        attribute('$ref', 'reference', { ...immutable, referenceTypes: ['User', 'Group'] }),
        // Not in the RFC 8.7.1 listing, but Okta and others send it with every member.
        attribute('display', 'string', immutable),
        attribute('type', 'string', { ...immutable, canonicalValues: ['User', 'Group'] }),
        // Microsoft's SCIM test collection names the member's display `displayName`; kept, shown as display.
        attribute('displayName', 'string', immutable),
      ],
      { multiValued: true },
    ),
  ],
};

export type ScimResourceType = 'User' | 'Group';

/** Each resource type's core schema and the extensions it may carry (RFC 7643 section 6). */
export const RESOURCE_SCHEMAS: Readonly<
  Record<ScimResourceType, { core: ScimSchema; extensions: readonly ScimSchema[] }>
> = {
  User: { core: USER_SCHEMA, extensions: [ENTERPRISE_USER_SCHEMA] },
  Group: { core: GROUP_SCHEMA, extensions: [] },
};
