import { randomBytes } from 'node:crypto';
import { epochSeconds, type Clock } from './clock.js';

/** What a code stands for, fixed when the user logged in. */
export interface CodeGrant {
  sessionId: string;
  clientId: string;
  /** Exactly as the authorization request sent it; the token request must repeat it. */
  redirectUri?: string;
  codeChallenge?: string;
  codeChallengeMethod?: string;
}

export type Redemption =
  | { kind: 'valid'; grant: CodeGrant }
  | { kind: 'reused'; grant: CodeGrant }
  | { kind: 'expired' }
  | { kind: 'unknown' };

/** Single-use authorization codes. A redeemed code is remembered until it would have expired, to spot reuse. */
export class AuthorizationCodes {
  private readonly codes = new Map<string, { grant: CodeGrant; expiresAt: number; redeemed: boolean }>();

  constructor(
    private readonly lifespanSeconds: number,
    private readonly now: Clock,
  ) {}

  issue(grant: CodeGrant): string {
    this.sweep();
    const code = randomBytes(32).toString('base64url');
    this.codes.set(code, {
      grant,
      expiresAt: epochSeconds(this.now) + this.lifespanSeconds,
      redeemed: false,
    });
    return code;
  }

  /** Uses the code up, whatever the token request does next, as Keycloak does. */
  redeem(code: string): Redemption {
    const entry = this.codes.get(code);
    if (!entry) return { kind: 'unknown' };
    if (entry.redeemed) return { kind: 'reused', grant: entry.grant };
    entry.redeemed = true;
    if (epochSeconds(this.now) > entry.expiresAt) return { kind: 'expired' };
    return { kind: 'valid', grant: entry.grant };
  }

  private sweep(): void {
    const now = epochSeconds(this.now);
    for (const [code, entry] of [...this.codes]) {
      if (now > entry.expiresAt) this.codes.delete(code);
    }
  }
}
