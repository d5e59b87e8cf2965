import { LockMode } from '@mikro-orm/core';
import { type EntityManager, UniqueConstraintViolationException } from '@mikro-orm/postgresql';
import type { OfferUriScheme } from '../../contract/issuance/offer-uri-scheme.js';
import { appendAuditEvent } from '../audit/audit-log.js';
import type { EntityManagerSource } from '../cache/node-caches.js';
import { conflict, notFound } from '../domain-errors.js';
import { ApiToken, type TokenKind, type TokenScope } from './api-token.entity.js';
import { type Mandator, Tenant, type TenantBranding } from './tenant.entity.js';
import { cachedTenant, tenantChanged, tokenChanged } from './tenant-cache.js';
import { mintToken } from './token-secret.js';

export interface TenantInput {
  id: string;
  name: string;
  delivery: 'email' | 'direct';
  mandator?: Mandator | undefined;
}

export interface TenantChanges {
  name?: string | undefined;
  delivery?: 'email' | 'direct' | undefined;
  mandator?: Mandator | null | undefined;
  credentialConfigurations?: string[] | null | undefined;
  branding?: TenantBranding | null | undefined;
  mailFrom?: string | null | undefined;
  offerTtlSeconds?: number | null | undefined;
  preAuthorizedCodeTtlSeconds?: number | null | undefined;
  presentationUriScheme?: 'openid4vp' | 'haip-vp' | null | undefined;
  presentationProfile?: 'haip-1.0' | null | undefined;
  offerUriScheme?: OfferUriScheme | null | undefined;
  refreshTokenTtlSeconds?: number | null | undefined;
  encryptionRequired?: boolean | undefined;
}

/** Creates the tenant with one integrator and one SCIM token, and records it, all or nothing. */
export async function createTenant(em: EntityManager, input: TenantInput, actor: string) {
  try {
    return await em.transactional(async (tx) => {
      const tenant = tx.create(Tenant, {
        ...input,
        mandator: input.mandator ?? null,
        credentialConfigurations: null,
        branding: null,
        mailFrom: null,
        offerTtlSeconds: null,
        preAuthorizedCodeTtlSeconds: null,
        presentationUriScheme: null,
        presentationProfile: null,
        offerUriScheme: null,
        refreshTokenTtlSeconds: null,
        encryptionRequired: false,
      });
      await tx.flush();
      const integrator = await addToken(tx, input.id, 'integrator', null, actor);
      const scim = await addToken(tx, input.id, 'scim', null, actor);
      await appendAuditEvent(tx, {
        tenantId: input.id,
        actor,
        action: 'tenant.created',
        subject: input.id,
        details: { name: input.name, delivery: input.delivery, tokens: [integrator.id, scim.id] },
      });
      return { tenant, integratorToken: integrator.token, scimToken: scim.token };
    });
  } catch (e) {
    if (e instanceof UniqueConstraintViolationException) throw conflict(`tenant ${input.id} already exists`);
    throw e;
  }
}

/** The tenant from the node's cache (a frozen copy, not a managed entity); 404 when there is none. */
export async function getTenant(em: EntityManagerSource, id: string): Promise<Tenant> {
  const tenant = await cachedTenant(em, id);
  if (!tenant) throw notFound(`tenant ${id}`);
  return tenant;
}

export async function listTenants(em: EntityManager, limit: number, offset: number) {
  const [items, total] = await em.findAndCount(Tenant, {}, { orderBy: { id: 'asc' }, limit, offset });
  return { items, total };
}

export async function updateTenant(em: EntityManager, id: string, changes: TenantChanges, actor: string) {
  return em.transactional(async (tx) => {
    const tenant = await tx.findOne(Tenant, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!tenant) throw notFound(`tenant ${id}`);
    const changed = Object.keys(changes).filter((k) => changes[k as keyof TenantChanges] !== undefined);
    tx.assign(tenant, Object.fromEntries(changed.map((k) => [k, changes[k as keyof TenantChanges]])));
    await tenantChanged(tx, id);
    await appendAuditEvent(tx, {
      tenantId: id,
      actor,
      action: 'tenant.updated',
      subject: id,
      details: { changed },
    });
    return tenant;
  });
}

export async function issueToken(
  em: EntityManager,
  tenantId: string,
  kind: TokenKind,
  expiresAt: Date | null,
  actor: string,
  scope: TokenScope = 'full',
) {
  return em.transactional(async (tx) => {
    await getTenant(tx, tenantId);
    return addToken(tx, tenantId, kind, expiresAt, actor, scope);
  });
}

export async function listTokens(em: EntityManager, tenantId: string) {
  await getTenant(em, tenantId);
  return em.find(ApiToken, { tenantId }, { orderBy: { createdAt: 'asc' } });
}

export async function revokeToken(em: EntityManager, tenantId: string, tokenId: string, actor: string) {
  return em.transactional(async (tx) => {
    const token = await tx.findOne(ApiToken, { id: tokenId, tenantId });
    if (!token) throw notFound(`token ${tokenId} of tenant ${tenantId}`);
    if (!token.revokedAt) {
      token.revokedAt = new Date();
      await tokenChanged(tx, tokenId);
      await appendAuditEvent(tx, {
        tenantId,
        actor,
        action: 'token.revoked',
        subject: tokenId,
        details: { kind: token.kind },
      });
    }
    return token;
  });
}

async function addToken(
  tx: EntityManager,
  tenantId: string,
  kind: TokenKind,
  expiresAt: Date | null,
  actor: string,
  scope: TokenScope = 'full',
) {
  const minted = mintToken(kind);
  const row = tx.create(ApiToken, {
    id: minted.id,
    tenantId,
    kind,
    scope,
    secretHash: minted.secretHash,
    expiresAt,
  });
  await tx.flush();
  await appendAuditEvent(tx, {
    tenantId,
    actor,
    action: 'token.issued',
    subject: minted.id,
    details: { kind, scope, expires_at: expiresAt?.toISOString() ?? null },
  });
  return { ...row, token: minted.token };
}
