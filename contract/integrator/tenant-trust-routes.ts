import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { TrustAnchorId, TrustAnchorInfo, TrustAnchorInput, TrustAnchorList } from '../admin/trust-anchor.js';
import {
  TrustSource,
  TrustSourceId,
  TrustSourceInput,
  TrustSourceList,
  TrustSourceStatus,
} from '../admin/trust-source.js';
import {
  TrustedIssuerInput,
  TrustedIssuerList,
  TrustedIssuerRegistered,
} from '../admin/trusted-issuer-contract.js';
import { ProblemDetails } from '../problem-details.js';

const c = initContract();

/** The X.509 roots the tenant's verifier trusts issuers by, through its integrator token. */
export const tenantTrustRoutes = c.router({
  listTenantTrustAnchors: {
    method: 'GET',
    path: '/trust-anchors',
    responses: { 200: TrustAnchorList, 401: ProblemDetails },
    summary: 'X.509 roots whose certified issuers the tenant’s verifier accepts',
  },
  addTenantTrustAnchor: {
    method: 'POST',
    path: '/trust-anchors',
    body: TrustAnchorInput,
    responses: {
      200: TrustAnchorInfo,
      201: TrustAnchorInfo,
      400: ProblemDetails,
      401: ProblemDetails,
      403: ProblemDetails,
    },
    summary: 'Trust credentials whose x5c chain leads to this CA certificate (201; 200 when already trusted)',
  },
  deleteTenantTrustAnchor: {
    method: 'DELETE',
    path: '/trust-anchors/:sha256',
    pathParams: z.object({ sha256: TrustAnchorId }),
    body: c.noBody(),
    responses: { 204: c.noBody(), 401: ProblemDetails, 403: ProblemDetails, 404: ProblemDetails },
    summary: 'Stop trusting a trust anchor (named by the SHA-256 of its certificate)',
  },
});

const sourceParams = z.object({ sourceId: TrustSourceId });

/** The issuers and published lists the tenant's verifier trusts, through its integrator token. */
export const tenantTrustedIssuerRoutes = c.router({
  listTenantTrustedIssuers: {
    method: 'GET',
    path: '/trusted-issuers',
    responses: { 200: TrustedIssuerList, 401: ProblemDetails },
    summary: 'Issuers whose credentials the tenant’s verifier accepts by their keys',
  },
  putTenantTrustedIssuer: {
    method: 'POST',
    path: '/trusted-issuers',
    body: TrustedIssuerInput,
    responses: {
      200: TrustedIssuerRegistered,
      201: TrustedIssuerRegistered,
      400: ProblemDetails,
      401: ProblemDetails,
      403: ProblemDetails,
    },
    summary: 'Trust an issuer by its keys, or by its jwt-vc-issuer metadata (201; 200 when replaced)',
  },
  removeTenantTrustedIssuer: {
    method: 'POST',
    path: '/trusted-issuers/remove',
    body: z.object({ issuer: z.string().url() }).strict(),
    responses: { 200: TrustedIssuerList, 400: ProblemDetails, 401: ProblemDetails, 403: ProblemDetails },
    summary: 'Stop trusting an issuer',
  },
  listTenantTrustSources: {
    method: 'GET',
    path: '/trust-sources',
    responses: { 200: TrustSourceList, 401: ProblemDetails },
    summary: 'The tenant’s trust sources (trusted lists, LOTL, lists of trusted entities) with their status',
  },
  addTenantTrustSource: {
    method: 'POST',
    path: '/trust-sources',
    body: TrustSourceInput,
    responses: { 201: TrustSource, 400: ProblemDetails, 401: ProblemDetails, 403: ProblemDetails },
    summary:
      'Trust a published list, with its signers pinned; fetched at once (its status says how that went)',
  },
  refreshTenantTrustSource: {
    method: 'POST',
    path: '/trust-sources/:sourceId/refresh',
    pathParams: sourceParams,
    body: c.noBody(),
    responses: { 200: TrustSourceStatus, 401: ProblemDetails, 403: ProblemDetails, 404: ProblemDetails },
    summary: 'Fetch a trust source now; answers its status',
  },
  deleteTenantTrustSource: {
    method: 'DELETE',
    path: '/trust-sources/:sourceId',
    pathParams: sourceParams,
    body: c.noBody(),
    responses: { 204: c.noBody(), 401: ProblemDetails, 403: ProblemDetails, 404: ProblemDetails },
    summary: 'Stop trusting a list: what it vouched for is no longer trusted',
  },
});
