import { randomBytes, randomUUID } from 'node:crypto';
import { epochSeconds, type Clock } from './clock.js';

/** What one client holds in a user session: its scope and the refresh-token rotation state. */
export interface ClientSession {
  clientId: string;
  scope: string;
  nonce?: string;
  /** "1" after a credential check, "0" when the SSO cookie logged the user in, as Keycloak's `acr`. */
  acr: '0' | '1';
  latestRefreshTokenId?: string;
  lastUsedRefreshTokenId?: string;
  lastUsedCount: number;
}

export interface UserSession {
  /** `session_state` and `sid` in tokens. */
  id: string;
  userId: string;
  /** The secret in the SSO cookie; distinct from the id, which every token reveals. */
  ssoToken: string;
  authTime: number;
  startedAt: number;
  lastRefreshAt: number;
  clients: Map<string, ClientSession>;
}

export interface SessionLifespans {
  ssoSessionIdleTimeout: number;
  ssoSessionMaxLifespan: number;
}

/** User sessions in memory: a restart ends them all, as a Keycloak without persistent sessions would. */
export class SessionStore {
  private readonly sessions = new Map<string, UserSession>();
  private readonly bySsoToken = new Map<string, string>();

  constructor(
    private readonly lifespans: SessionLifespans,
    private readonly now: Clock,
  ) {}

  create(userId: string): UserSession {
    this.sweep();
    const now = epochSeconds(this.now);
    const session: UserSession = {
      id: randomUUID(),
      userId,
      ssoToken: randomBytes(32).toString('base64url'),
      authTime: now,
      startedAt: now,
      lastRefreshAt: now,
      clients: new Map(),
    };
    this.sessions.set(session.id, session);
    this.bySsoToken.set(session.ssoToken, session.id);
    return session;
  }

  /** An active session, or undefined when it never existed, ended, or timed out. */
  get(id: string | undefined): UserSession | undefined {
    if (id === undefined) return undefined;
    const session = this.sessions.get(id);
    if (!session) return undefined;
    if (!this.isActive(session)) {
      this.end(session.id);
      return undefined;
    }
    return session;
  }

  findBySsoToken(token: string | undefined): UserSession | undefined {
    return token === undefined ? undefined : this.get(this.bySsoToken.get(token));
  }

  attachClient(session: UserSession, client: Omit<ClientSession, 'lastUsedCount'>): ClientSession {
    const clientSession: ClientSession = { ...client, lastUsedCount: 0 };
    session.clients.set(client.clientId, clientSession);
    return clientSession;
  }

  /** Marks activity: the idle timeout counts from here. */
  touch(session: UserSession): void {
    session.lastRefreshAt = epochSeconds(this.now);
  }

  /** When a refresh token issued now expires: the idle timeout, capped by the session's maximum lifespan. */
  refreshExpiresAt(session: UserSession): number {
    return Math.min(
      epochSeconds(this.now) + this.lifespans.ssoSessionIdleTimeout,
      session.startedAt + this.lifespans.ssoSessionMaxLifespan,
    );
  }

  end(id: string): boolean {
    const session = this.sessions.get(id);
    if (!session) return false;
    this.sessions.delete(id);
    this.bySsoToken.delete(session.ssoToken);
    return true;
  }

  private isActive(session: UserSession): boolean {
    const now = epochSeconds(this.now);
    return (
      now <= session.lastRefreshAt + this.lifespans.ssoSessionIdleTimeout &&
      now <= session.startedAt + this.lifespans.ssoSessionMaxLifespan
    );
  }

  private sweep(): void {
    for (const session of [...this.sessions.values()]) {
      if (!this.isActive(session)) this.end(session.id);
    }
  }
}
