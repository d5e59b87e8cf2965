import { STATUS_CODES } from 'node:http';
import { generateSchema } from '@anatine/zod-openapi';
import { type AppRoute, initContract, isAppRouteOtherResponse, isZodType } from '@ts-rest/core';
import { generateOpenApi } from '@ts-rest/open-api';
import { type AnyZodObject, type ZodTypeAny, z } from 'zod';
import { WEBHOOK_EVENT_TYPES, WebhookEvent } from './admin/webhook.js';
import { contract } from './index.js';
import { OAuthErrorResponse } from './oid4vci/oauth-error-response.js';
import { oidcRoutes } from './oidc/oidc-routes.js';
import { ProblemDetails } from './problem-details.js';
import { SCIM_MEDIA_TYPE } from './scim/scim-media-type.js';
import { scimRoutes } from './scim/scim-routes.js';
import { STATUS_LIST_JWT_MEDIA_TYPE } from './status-list/status-list-token.js';

type Json = Record<string, unknown>;
type Mapper = NonNullable<NonNullable<Parameters<typeof generateOpenApi>[2]>['operationMapper']>;
type Operation = Parameters<Mapper>[0];

const SECURITY_SCHEMES = {
  adminToken: { type: 'http', scheme: 'bearer', description: 'ADMIN_TOKEN of the deployment' },
  integratorToken: { type: 'http', scheme: 'bearer', description: 'An integrator token of a tenant' },
  scimToken: { type: 'http', scheme: 'bearer', description: 'A SCIM token of the tenant in the path' },
  walletAccessToken: {
    type: 'http',
    scheme: 'bearer',
    description:
      'The access token of the token endpoint: `Authorization: Bearer <token>`, or `Authorization: DPoP <token>` ' +
      'with a `DPoP` proof header when the token is DPoP-bound (RFC 9449)',
  },
  oidcAccessToken: {
    type: 'http',
    scheme: 'bearer',
    description: 'The access token a relying party received for a sign-in at /oauth2/token',
  },
  clientSecretBasic: {
    type: 'http',
    scheme: 'basic',
    description:
      'client_secret_basic: a relying party’s client_id and client_secret; for codes of integrator sessions, ' +
      'the tenant id and an integrator token',
  },
  metricsToken: { type: 'http', scheme: 'bearer', description: 'METRICS_TOKEN of the deployment' },
} as const;

type Scheme = keyof typeof SECURITY_SCHEMES;

/** A route's `metadata.security`, as its security requirements; routes without one are public. */
const SECURITY: Record<string, Partial<Record<Scheme, []>>[]> = {
  admin: [{ adminToken: [] }],
  integrator: [{ integratorToken: [] }],
  scim: [{ scimToken: [] }],
  wallet: [{ walletAccessToken: [] }],
  'oidc-access': [{ oidcAccessToken: [] }],
  // client_secret_post and private_key_jwt travel in the form; the pre-authorized code grant needs none.
  'token-client': [{ clientSecretBasic: [] }, {}],
  metrics: [{ metricsToken: [] }],
};

const TAGS: Record<string, string> = {
  health: 'Probes for load balancers and orchestrators',
  admin: 'The operator’s API: tenants, tokens, audit log, signing keys, configurations, relying parties',
  integrator: 'A tenant’s integrator API: issue and revoke credentials, verify presentations',
  oid4vci: 'Wallets receiving credentials (OpenID4VCI 1.0, pre-authorized code) and the issuer’s metadata',
  oid4vp: 'Wallets presenting credentials (OpenID4VP 1.0)',
  trustedIssuers: 'The issuers and trust anchors a tenant’s verifier accepts',
  transactionDataTypes:
    'The transaction data types a tenant’s approvals may use besides the built-in one, each with its JSON Schema',
  trustSources:
    'Published trust lists a tenant trusts by: ETSI TS 119 602 Lists of Trusted Entities, TS 119 612 trusted lists and the EU LOTL, fetched and validated against pinned signer certificates',
  registrationCertificates:
    'Registration certificates (ETSI TS 119 475) of a tenant’s verifier and of the credential issuer, which wallets receive as verifier_info and issuer_info',
  webhooks: 'A tenant’s webhook endpoints and their deliveries',
  console:
    'The administrators’ console at /console: which powers of the employee credential let a tenant’s employees in, and the operator’s one-time sign-in link',
  scim: 'Directory sync: SCIM 2.0 per tenant (RFC 7643, RFC 7644); messages are application/scim+json',
  oidc: 'The authorization server (tokens, PAR, the issuance sign-in) and the verifier’s OpenID Connect provider: sign in with a credential',
  statusLists: 'Token Status Lists of issued credentials',
  pages: 'Pages for people: the offer page an e-mail links to',
  operations: 'The API reference and metrics',
};

interface RouteDocs {
  security?: string;
  /** The media type of the route's JSON messages when it is not application/json (SCIM). */
  mediaType?: string;
  /** Response headers by status. */
  responseHeaders?: Record<number, AnyZodObject>;
  /** Request media types besides the JSON one, with their schemas (encrypted messages as application/jwt). */
  otherBodies?: Record<string, ZodTypeAny>;
  /** Response media types besides the JSON one by status. */
  otherResponses?: Record<number, Record<string, ZodTypeAny>>;
}

const c = initContract();

/**
 * Routes that are plain express handlers rather than ts-rest endpoints (HTML, server-sent events, JWT
 * bodies, their own media types and error formats), described with the same zod schemas so that the
 * document covers every route the service mounts. Never mounted from here.
 */
const documentedRoutes = c.router({
  scim: c.router(scimRoutes, { metadata: { mediaType: SCIM_MEDIA_TYPE } }),
  oidc: oidcRoutes,
  statusLists: {
    statusList: {
      method: 'GET',
      path: '/status-lists/:id',
      pathParams: z.object({ id: z.string().uuid() }),
      responses: {
        200: c.otherResponse({
          contentType: STATUS_LIST_JWT_MEDIA_TYPE,
          body: z
            .string()
            .regex(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/)
            .describe(
              'A Status List Token (draft-ietf-oauth-status-list): a JWT of typ statuslist+jwt, ES256, whose ' +
                'status_list claim holds the ZLIB-compressed, base64url status bits of the list',
            ),
        }),
        404: ProblemDetails,
        429: ProblemDetails,
      },
      summary: 'A Token Status List (public, cacheable for its ttl, open to browsers)',
      metadata: {
        responseHeaders: {
          200: z.object({
            'Cache-Control': z.string().describe('public, max-age=<seconds until the token’s ttl or exp>'),
          }),
        },
      },
    },
  },
  pages: {
    offerPage: {
      method: 'GET',
      path: '/oid4vci/v1/offer/:offerId',
      pathParams: z.object({ offerId: z.string() }),
      responses: {
        200: c.otherResponse({
          contentType: 'text/html',
          body: z
            .string()
            .describe('Who offers which credential until when, its QR code, and a link that opens a wallet'),
        }),
        404: c.otherResponse({
          contentType: 'text/html',
          body: z.string().describe('The offer was used or has expired'),
        }),
        429: OAuthErrorResponse,
      },
      summary: 'The page an e-mailed offer links to (HTML, in the tenant’s colours)',
    },
  },
  operations: {
    openApi: {
      method: 'GET',
      path: '/openapi.json',
      responses: {
        200: z.record(z.unknown()).describe('This document, with the deployment’s PUBLIC_URL as its server'),
        429: ProblemDetails,
      },
      summary: 'This OpenAPI document',
    },
    docs: {
      method: 'GET',
      path: '/docs',
      responses: {
        200: c.otherResponse({ contentType: 'text/html', body: z.string() }),
        429: ProblemDetails,
      },
      summary: 'The API reference (Swagger UI, served locally)',
    },
    docsScript: {
      method: 'GET',
      path: '/docs/init.js',
      responses: {
        200: c.otherResponse({ contentType: 'application/javascript', body: z.string() }),
        429: ProblemDetails,
      },
      summary: 'The API reference’s script: loads /openapi.json into Swagger UI',
    },
    docsAssets: {
      method: 'GET',
      path: '/docs/assets/:file',
      pathParams: z.object({
        file: z.string().describe('A file of swagger-ui-dist, e.g. swagger-ui-bundle.js'),
      }),
      responses: {
        200: c.otherResponse({
          contentType: '*/*',
          body: z
            .string()
            .describe('The file, in its media type (text/css, application/javascript, image/png)'),
        }),
        404: ProblemDetails,
        429: ProblemDetails,
      },
      summary: 'The API reference’s assets (Swagger UI’s scripts and styles, with their own media types)',
    },
    metrics: {
      method: 'GET',
      path: '/metrics',
      responses: {
        200: c.otherResponse({
          contentType: 'text/plain',
          body: z.string().describe('Prometheus text exposition format 0.0.4'),
        }),
        401: c.otherResponse({ contentType: 'text/plain', body: z.string() }),
      },
      summary:
        'Prometheus metrics: here only when METRICS_TOKEN is set (and then with it); METRICS_PORT serves them on a port of their own',
      metadata: { security: 'metrics' },
    },
  },
});

/** Standard Webhooks headers of every delivery. */
const WebhookHeaders = z.object({
  'webhook-id': z.string().describe('The message id: the same on every try and replay; deduplicate on it'),
  'webhook-timestamp': z
    .string()
    .regex(/^[0-9]+$/)
    .describe('Seconds since the epoch, of this try'),
  'webhook-signature': z
    .string()
    .describe(
      'Space-separated v1,<base64 HMAC-SHA256 of "id.timestamp.body"> under the endpoint’s secret (the bytes ' +
        'after whsec_, base64-decoded); during a rotation one signature per live secret',
    ),
});

/** The OpenAPI 3.1 document of the service; openapi/openapi.json is this, written by `npm run openapi`. */
export function buildOpenApi(): Json {
  const mapper = { setOperationId: 'concatenated-path' as const, operationMapper: describeOperation };
  const info = {
    title: 'Credential Service',
    version: '1.0.0',
    description:
      'Issues employee credentials to wallets (OID4VCI), verifies presentations (OID4VP) and keeps ' +
      'them in step with the company directory (SCIM 2.0). Errors of the integrator and admin APIs ' +
      'are RFC 9457 problem details; wallets and relying parties get OAuth errors, SCIM clients SCIM errors.',
  };
  const main = generateOpenApi(contract, { info }, mapper) as Json;
  const more = generateOpenApi(documentedRoutes, { info }, mapper) as Json;
  const paths = { ...(main.paths as Json) };
  for (const [path, item] of Object.entries(more.paths as Json)) {
    if (paths[path]) throw new Error(`${path} is both in the contract and among the documented routes`);
    paths[path] = item;
  }
  // Schemas with a title are written once, as components, and referred to.
  const schemas = { ...componentSchemas(main), ...componentSchemas(more) };
  const tags = [
    ...new Set(Object.values(paths).flatMap((item) => operationsOf(item).flatMap((o) => o.tags))),
  ];
  const undescribed = tags.filter((t) => !(t in TAGS));
  if (undescribed.length) throw new Error(`tags without a description in TAGS: ${undescribed.join(', ')}`);
  return toOpenApi31({
    openapi: '3.1.0',
    info,
    servers: [
      {
        url: '/',
        description: 'Where this document is served from; /openapi.json of a deployment names its PUBLIC_URL',
      },
    ],
    tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
    paths,
    webhooks: webhooks(),
    components: { ...(Object.keys(schemas).length ? { schemas } : {}), securitySchemes: SECURITY_SCHEMES },
  });
}

const componentSchemas = (doc: Json) => ((doc.components as Json | undefined)?.schemas ?? {}) as Json;

const operationsOf = (item: unknown) => Object.values(item as Record<string, { tags: string[] }>);

/**
 * What the generator leaves out: the route's security, the media types of other responses (HTML,
 * JWTs, event streams) and of SCIM, response headers, and response descriptions.
 */
function describeOperation(operation: Operation, route: AppRoute): Operation {
  const docs = (route.metadata ?? {}) as RouteDocs;
  const responses = operation.responses as Record<string, Json>;
  for (const [status, response] of Object.entries(route.responses)) {
    const described = responses[status] as Json;
    const json = (described.content as Json | undefined)?.['application/json'];
    if (isAppRouteOtherResponse(response)) {
      described.content = { [response.contentType]: { schema: schemaOf(response.body) } };
    } else if (response === ProblemDetails) {
      described.content = { 'application/problem+json': json };
    } else if (docs.mediaType && json) {
      described.content = { [docs.mediaType]: json };
    }
    for (const [type, body] of Object.entries(docs.otherResponses?.[Number(status)] ?? {}))
      described.content = { ...(described.content as Json), [type]: { schema: schemaOf(body) } };
    const headers = docs.responseHeaders?.[Number(status)];
    if (headers) described.headers = headersOf(headers);
    // The generator takes the body's description, or the bare status code.
    if (described.description === status || response === ProblemDetails)
      described.description = STATUS_CODES[Number(status)] ?? `HTTP ${status}`;
  }
  const content = (operation.requestBody as { content?: Json } | undefined)?.content;
  return {
    ...operation,
    parameters: ((operation.parameters ?? []) as Json[]).map(hoistDescription),
    // Every declared body is required (a missing one is a 400). SCIM clients may send either media
    // type (RFC 7644 section 3.1; Entra sends plain JSON).
    ...(content
      ? {
          requestBody: {
            required: true,
            content: {
              ...(docs.mediaType && content['application/json']
                ? { [docs.mediaType]: content['application/json'], ...content }
                : content),
              ...Object.fromEntries(
                Object.entries(docs.otherBodies ?? {}).map(([type, body]) => [
                  type,
                  { schema: schemaOf(body) },
                ]),
              ),
            },
          },
        }
      : {}),
    security: SECURITY[docs.security ?? ''] ?? [],
  } as Operation;
}

/** A parameter's description belongs to the parameter, where the generator leaves it in the schema. */
function hoistDescription(parameter: Json): Json {
  const { description, ...schema } = (parameter.schema ?? {}) as Json;
  if (!description || parameter.description) return parameter;
  return { ...parameter, description, schema };
}

const schemaOf = (body: unknown): Json => (isZodType(body) ? (generateSchema(body, true) as Json) : {});

function headersOf(headers: AnyZodObject): Json {
  return Object.fromEntries(
    Object.entries(headers.shape).map(([name, schema]) => {
      const { description, ...rest } = schemaOf(schema);
      return [name, { ...(description ? { description } : {}), schema: rest }];
    }),
  );
}

/** The `webhooks` of the document: one per event type, each a Standard Webhooks POST to the endpoint. */
function webhooks(): Json {
  const headers = headersOf(WebhookHeaders);
  return Object.fromEntries(
    WEBHOOK_EVENT_TYPES.map((type) => [
      type,
      {
        post: {
          summary: `The tenant’s ${type} event`,
          description:
            'Sent to each endpoint of the tenant that subscribed to it, signed per Standard Webhooks. Any 2xx ' +
            'acknowledges it; anything else (or no answer) is retried with backoff, and every try is listed ' +
            'in the endpoint’s deliveries, from where it can be replayed.',
          operationId: `webhooks.${type}`,
          tags: ['webhooks'],
          security: [],
          parameters: Object.entries(headers).map(([name, h]) => ({
            name,
            in: 'header',
            required: true,
            ...(h as Json),
          })),
          requestBody: {
            required: true,
            content: {
              'application/json': { schema: schemaOf(WebhookEvent.extend({ type: z.literal(type) })) },
            },
          },
          responses: {
            '2XX': { description: 'Received' },
            default: { description: 'Not received: the delivery is tried again later' },
          },
        },
      },
    ]),
  );
}

/**
 * The generator writes OpenAPI 3.0 schemas; the document is 3.1 (JSON Schema 2020-12, and `webhooks`).
 * `nullable` becomes a `null` type; zod's null, written as `{type: string, format: null}`, becomes
 * `{type: null}`; an unknown value (`{nullable: true}` alone) becomes `{}`, which admits anything.
 * A zod union accepts a value when any member does, so its JSON Schema is `anyOf`; the generator
 * writes `oneOf`, which refuses a value that fits two members (an employee payload is also an object
 * of another configuration). Discriminated unions (with `discriminator`) are disjoint and stay oneOf.
 */
function toOpenApi31(doc: Json): Json {
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (node === null || typeof node !== 'object') return node;
    return Object.fromEntries(
      Object.entries(node).map(([k, v]) => [k, k === 'schema' ? convertSchema(v) : walk(v)]),
    );
  };
  const { components, ...rest } = doc as { components: { schemas?: Json } };
  const schemas = components.schemas
    ? Object.fromEntries(Object.entries(components.schemas).map(([name, s]) => [name, convertSchema(s)]))
    : undefined;
  return { ...(walk(rest) as Json), components: { ...components, ...(schemas ? { schemas } : {}) } };
}

const SUBSCHEMA_LISTS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];
const SUBSCHEMAS = ['items', 'not', 'additionalProperties', 'contains'];

function convertSchema(input: unknown): unknown {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) return input;
  const s: Json = { ...(input as Json) };
  if (s.format === 'null' && s.nullable === true) {
    const { description } = s;
    return { type: 'null', ...(description ? { description } : {}) };
  }
  if (s.properties) {
    s.properties = Object.fromEntries(
      Object.entries(s.properties as Json).map(([name, p]) => [name, convertSchema(p)]),
    );
  }
  for (const key of SUBSCHEMAS) if (key in s) s[key] = convertSchema(s[key]);
  for (const key of SUBSCHEMA_LISTS)
    if (Array.isArray(s[key])) s[key] = (s[key] as unknown[]).map(convertSchema);
  if (Array.isArray(s.oneOf) && !s.discriminator) {
    s.anyOf = s.oneOf;
    delete s.oneOf;
  }
  const nullable = s.nullable === true;
  delete s.nullable;
  if (!nullable) return s;
  if (s.type !== undefined) {
    s.type = [...new Set([...(Array.isArray(s.type) ? s.type : [s.type]), 'null'])];
    if (Array.isArray(s.enum) && !s.enum.includes(null)) s.enum = [...s.enum, null];
    return s;
  }
  const union = (s.anyOf ?? s.oneOf) as Json[] | undefined;
  if (union) {
    if (!union.some((m) => m.type === 'null')) union.push({ type: 'null' });
    return s;
  }
  // A nullable reference to a component, as the generator writes it: `{nullable, allOf: [{$ref}]}`.
  if (s.allOf) {
    const { allOf, description } = s;
    return { ...(description ? { description } : {}), anyOf: [{ allOf }, { type: 'null' }] };
  }
  // No type and no union: an unknown value, which `{}` already admits with null.
  return s;
}
