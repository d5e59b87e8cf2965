import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

export const CREDENTIAL_STATUSES = ['valid', 'revoked', 'suspended'] as const;
export type CredentialStatus = (typeof CREDENTIAL_STATUSES)[number];
export const WALLET_NOTIFICATIONS = [
  'credential_accepted',
  'credential_failure',
  'credential_deleted',
] as const;

/** A credential that was signed and handed out, and where its status lives in a status list. */
export const IssuedCredential = defineEntity({
  name: 'IssuedCredential',
  tableName: 'issued_credential',
  properties: {
    id: p.uuid().primary(),
    tenantId: p.string(),
    issuanceId: p.string().nullable(),
    configurationId: p.string(),
    statusListId: p.string(),
    statusIdx: p.integer(),
    status: p.enum(CREDENTIAL_STATUSES),
    issuedAt: p.datetime(),
    expiresAt: p.datetime(),
    notificationId: p.string().nullable(),
    walletNotification: p.enum(WALLET_NOTIFICATIONS).nullable(),
  },
});

export type IssuedCredential = InferEntity<typeof IssuedCredential>;
