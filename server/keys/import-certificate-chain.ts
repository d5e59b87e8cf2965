import { conflict } from '../domain-errors.js';
import type { Orm } from '../persistence/orm.js';
import type { KeyCertificates } from './key-certificates.js';
import { recordKeyEvent } from './key-events.js';
import type { SigningKey } from './signing-key.entity.js';
import { changeSigningKey } from './signing-key-table.js';
import { certificateOf } from './x509-support.js';

const subjectOf = (base64: string) => certificateOf(base64).subject;

/**
 * Stores a CA's PEM chain as the `x5c` of key `kid` once it is checked (a 400 problem when it does
 * not fit; 404 for an unknown key, 409 for a retired one) and tells every node at commit.
 */
export function importCertificateChain(
  orm: Orm,
  certificates: KeyCertificates,
  kid: string,
  pem: string,
  actor: string,
): Promise<SigningKey> {
  return changeSigningKey(orm, kid, async (current, tx) => {
    if (current.status === 'retired') throw conflict(`signing key ${kid} is retired`);
    await certificates.importChain(current, pem);
    await recordKeyEvent(tx, {
      kid,
      purpose: current.purpose,
      actor,
      action: 'key.chain_imported',
      details: {
        subject: current.certificateChain?.length ? subjectOf(current.certificate as string) : null,
      },
    });
  });
}
