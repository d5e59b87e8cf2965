import type { SessionApproval } from './session-approval.js';

/** A power entry of an employee credential (its mandate): a function, its actions, maybe a domain. */
interface Power {
  function?: unknown;
  action?: unknown;
  domain?: unknown;
}

const same = (a: unknown, b: string) =>
  typeof a === 'string' && a.trim().toLowerCase() === b.trim().toLowerCase();

/** Whether one power entry allows the required function and action (and domain, when one is required). */
function allows(power: Power, required: RequiredPower): boolean {
  const actions = Array.isArray(power.action) ? power.action : [power.action];
  if (!same(power.function, required.function)) return false;
  if (!actions.some((a) => same(a, required.action))) return false;
  // A required domain is met only by a power that names that domain: a power without one is not wider.
  return required.domain === undefined || same(power.domain, required.domain);
}

/** A required power: function and action, and the domain when one is named. */
export interface RequiredPower {
  function: string;
  action: string;
  domain?: string | undefined;
}

/**
 * Whether a credential's `power` claim holds an entry allowing `required` (compared without case;
 * a required domain only by an entry naming it). The one reading of a mandate: approvals and the
 * console's roles both ask it.
 */
export function holdsPower(powers: unknown, required: RequiredPower): boolean {
  return (
    Array.isArray(powers) &&
    powers.some((p) => typeof p === 'object' && p !== null && allows(p as Power, required))
  );
}

/**
 * Why the presented credential's mandate does not cover the approval, or undefined when it does: its
 * disclosed `power` entries (LEARCredentialEmployee: function, actions) must hold one allowing the
 * required function and action (compared without case), in the required domain if one is named.
 */
export function mandateShortfall(claims: Record<string, unknown>, required: SessionApproval['power']) {
  const powers = claims.power;
  if (!Array.isArray(powers) || powers.length === 0)
    return 'the presented credential discloses no power (its mandate)';
  if (holdsPower(powers, required)) return undefined;
  const wanted = `${required.function} / ${required.action}${required.domain ? ` in ${required.domain}` : ''}`;
  return `no power of the presented credential allows ${wanted}`;
}
