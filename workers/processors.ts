import { auditExportProcessor } from './audit-export/audit-export.processor.js';
import { auditSealProcessor } from './audit-seal/audit-seal.processor.js';
import type { Processors } from './job-context.js';
import { sendMailProcessor } from './mail/send-mail.processor.js';
import { publishStatusListProcessor } from './status-list/publish-status-list.processor.js';
import { deliverWebhookProcessor } from './webhook/deliver-webhook.processor.js';

/** Topic to processor; BullMQ workers and the in-process runner use this same table. */
export const processors: Processors = {
  mail: sendMailProcessor,
  'status-list': publishStatusListProcessor,
  'audit-export': auditExportProcessor,
  'audit-seal': auditSealProcessor,
  webhook: deliverWebhookProcessor,
};
