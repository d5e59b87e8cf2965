import { Migration } from '@mikro-orm/migrations';

/**
 * DPoP (RFC 9449) at the issuer: an access token may be bound to the thumbprint of the wallet's
 * DPoP key (`cnf.jkt`; null for a bearer token), and the `jti` of every DPoP proof and client
 * attestation PoP accepted is kept, hashed, until it could no longer pass the `iat` window anyway,
 * so that one proof is good for one request on any node.
 */
export class Migration20261123001000_dpop extends Migration {
  override name = 'Migration20261123001000_dpop';

  override up(): void {
    this.addSql('alter table oid4vci_access_token add column dpop_jkt text');
    this.addSql(`
      create table oid4vci_proof_jti (
        jti_hash text primary key,
        expires_at timestamptz not null
      )`);
    this.addSql('create index oid4vci_proof_jti_expiry_idx on oid4vci_proof_jti (expires_at)');
  }
}
