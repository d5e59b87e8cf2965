import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { compactVerify, decodeProtectedHeader } from 'jose';

export const APPROVAL_USAGE = `  approval verify-receipt <receipt.jwt> --root <ca.pem>   (offline: no service needed)`;

const RECEIPT_TYP = 'approval-receipt+jwt';

/** Each certificate of `x5c` (leaf first) issued by the next, the last by `root`, all valid now. */
function checkChain(x5c: string[], root: X509Certificate, now: Date): X509Certificate {
  const chain = x5c.map((der) => new X509Certificate(Buffer.from(der, 'base64')));
  const valid = (c: X509Certificate) => new Date(c.validFrom) <= now && now <= new Date(c.validTo);
  chain.forEach((cert, i) => {
    const issuer = chain[i + 1] ?? root;
    if (!valid(cert)) throw new Error(`certificate ${i} (${cert.subject}) is not valid now`);
    if (!cert.checkIssued(issuer) || !cert.verify(issuer.publicKey))
      throw new Error(`certificate ${i} (${cert.subject}) is not issued by ${issuer.subject}`);
  });
  return chain[0] as X509Certificate;
}

/**
 * Checks an approval receipt offline, as a third party would: `typ approval-receipt+jwt`, ES256,
 * signed by the leaf of its `x5c`, whose chain leads to the given root (the deployment's CA, e.g.
 * `keys development-ca`, or the CA that issued the verifier's certificate). Prints what it proves.
 */
export async function verifyApprovalReceipt(file: string, rootPem: string) {
  const jws = readFileSync(file, 'utf8').trim();
  const header = decodeProtectedHeader(jws);
  if (header.typ !== RECEIPT_TYP) throw new Error(`typ is ${String(header.typ)}, not ${RECEIPT_TYP}`);
  if (header.alg !== 'ES256') throw new Error(`alg is ${String(header.alg)}, not ES256`);
  if (!Array.isArray(header.x5c) || header.x5c.length === 0) throw new Error('the receipt has no x5c');
  const leaf = checkChain(header.x5c, new X509Certificate(readFileSync(rootPem)), new Date());
  const { payload } = await compactVerify(jws, leaf.publicKey, { algorithms: ['ES256'] });
  const receipt = JSON.parse(new TextDecoder().decode(payload)) as Record<string, unknown>;
  return {
    status: 200,
    body: {
      valid: true,
      signed_by: leaf.subject,
      issued_at: new Date(Number(receipt.iat) * 1000).toISOString(),
      approval: receipt.approval,
      approver: receipt.approver,
      credential: receipt.credential,
    },
  };
}
