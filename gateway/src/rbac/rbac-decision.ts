/** What RBAC answers for a write, whichever road it came by. */
export interface RbacDecision {
  allowed: boolean;
  /** One sentence: what was allowed or refused, and why. Refusals are shown to the client. */
  reason: string;
  /** A refusal because the create's `uuid` already names an object: answered 409, not 403. */
  conflict?: true;
}

export const allow = (reason: string): RbacDecision => ({ allowed: true, reason });
export const deny = (reason: string): RbacDecision => ({ allowed: false, reason });
