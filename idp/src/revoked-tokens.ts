import type { Clock } from './clock.js';

/** At most this many revoked access tokens are remembered; each only until it would have expired anyway. */
export const MAX_REVOKED_TOKENS = 10_000;

/**
 * Access tokens revoked through the revocation endpoint, by `jti`, until they expire (Keycloak keeps them
 * in its single-use store for the same time). Only this provider's userinfo and introspection see it: the
 * gateway verifies tokens by signature and keeps accepting a revoked token until its `exp`.
 */
export class RevokedTokens {
  private readonly expiries = new Map<string, number>();

  constructor(private readonly now: Clock) {}

  /** `expiresAt` in epoch seconds; Keycloak keeps the entry at least 10 s. */
  revoke(jti: string, expiresAt: number): void {
    this.sweep();
    if (this.expiries.size >= MAX_REVOKED_TOKENS) {
      const oldest = this.expiries.keys().next();
      if (!oldest.done) this.expiries.delete(oldest.value);
    }
    this.expiries.set(jti, Math.max(expiresAt * 1000 + 1000, this.now() + 10_000));
  }

  isRevoked(jti: unknown): boolean {
    if (typeof jti !== 'string') return false;
    const until = this.expiries.get(jti);
    return until !== undefined && until > this.now();
  }

  private sweep(): void {
    const now = this.now();
    for (const [jti, until] of this.expiries) if (until <= now) this.expiries.delete(jti);
  }
}
