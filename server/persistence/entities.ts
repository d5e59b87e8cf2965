import { AuditEvent } from '../audit/audit-event.entity.js';
import { SigningKey } from '../keys/signing-key.entity.js';
import { MailMessage } from '../mail/mail-message.entity.js';
import { OutboxMessage } from '../outbox/outbox-message.entity.js';
import { ApiToken } from '../tenants/api-token.entity.js';
import { Tenant } from '../tenants/tenant.entity.js';

export const entities = [Tenant, ApiToken, AuditEvent, OutboxMessage, MailMessage, SigningKey];
