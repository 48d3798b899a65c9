import type { Clock } from './clock.js';

/**
 * Keycloak's brute-force detection settings, with the realm file's member names (`RealmRepresentation`).
 * The realm builder turns detection on; the development identity provider reads the same members.
 */
export interface BruteForceSettings {
  bruteForceProtected: boolean;
  /** Keycloak disables the user; here the lock lasts until the provider restarts (no user store to write). */
  permanentLockout: boolean;
  /** Failures before a lockout (Keycloak's "Max login failures"). */
  failureFactor: number;
  /** `MULTIPLE`: wait = increment × ⌊failures / factor⌋; `LINEAR`: increment × (1 + failures − factor). */
  bruteForceStrategy: 'MULTIPLE' | 'LINEAR';
  waitIncrementSeconds: number;
  /** Two failures closer than this lock the account for `minimumQuickLoginWaitSeconds`. */
  quickLoginCheckMilliSeconds: number;
  minimumQuickLoginWaitSeconds: number;
  maxFailureWaitSeconds: number;
  /** Failures older than this are forgotten. */
  maxDeltaTimeSeconds: number;
}

/** Keycloak's defaults for members a realm file leaves out (detection itself is off by default). */
export const KEYCLOAK_BRUTE_FORCE_DEFAULTS: BruteForceSettings = {
  bruteForceProtected: false,
  permanentLockout: false,
  failureFactor: 30,
  bruteForceStrategy: 'MULTIPLE',
  waitIncrementSeconds: 60,
  quickLoginCheckMilliSeconds: 1000,
  minimumQuickLoginWaitSeconds: 60,
  maxFailureWaitSeconds: 900,
  maxDeltaTimeSeconds: 43_200,
};

/**
 * How many times the per-user failure factor one client address may fail before it is locked too.
 * Keycloak counts per user only; a per-address count also stops one client spraying guesses over many
 * (or unknown) usernames. It is higher than per user and skips the quick-login rule, so a few typos
 * behind a shared address (loopback in development, a NAT) lock nobody else out.
 */
export const ADDRESS_FAILURE_FACTOR_MULTIPLIER = 5;

/** At most this many users and addresses are tracked; beyond it the longest-quiet entry is forgotten. */
export const MAX_TRACKED_ENTRIES = 10_000;

interface FailureRecord {
  failures: number;
  /** Milliseconds since the epoch. */
  lastFailure: number;
  /** Epoch milliseconds before which logins are refused; 0 when not locked. */
  notBefore: number;
  permanent: boolean;
}

/** One failure counter (per user, or per client address) with Keycloak's detector semantics. */
class FailureCounter {
  private readonly records = new Map<string, FailureRecord>();

  constructor(
    private readonly settings: BruteForceSettings,
    private readonly now: Clock,
    private readonly options: { quickLoginRule: boolean; maxEntries: number },
  ) {}

  isLocked(key: string): boolean {
    const record = this.records.get(key);
    if (!record) return false;
    return record.permanent || this.now() < record.notBefore;
  }

  /** Counts a failed login, as Keycloak's `DefaultBruteForceProtector.failure` does. */
  failure(key: string): void {
    const now = this.now();
    let record = this.records.get(key);
    if (record) {
      // Re-inserted so the map's order stays "least recently failed first" for eviction.
      this.records.delete(key);
    } else {
      this.evictIfFull();
      record = { failures: 0, lastFailure: 0, notBefore: 0, permanent: false };
    }
    this.records.set(key, record);
    const delta = record.lastFailure > 0 ? now - record.lastFailure : 0;
    const quick = record.lastFailure > 0 && delta < this.settings.quickLoginCheckMilliSeconds;
    if (delta > this.settings.maxDeltaTimeSeconds * 1000) record.failures = 0;
    record.lastFailure = now;
    record.failures += 1;

    if (this.settings.permanentLockout) {
      if (record.failures >= this.settings.failureFactor) record.permanent = true;
      else if (quick && this.options.quickLoginRule) {
        record.notBefore = now + this.settings.minimumQuickLoginWaitSeconds * 1000;
      }
      return;
    }
    let waitSeconds = this.waitSeconds(record.failures);
    if (waitSeconds === 0 && quick && this.options.quickLoginRule) {
      waitSeconds = this.settings.minimumQuickLoginWaitSeconds;
    }
    if (waitSeconds > 0) {
      record.notBefore = now + Math.min(waitSeconds, this.settings.maxFailureWaitSeconds) * 1000;
    }
  }

  /** A successful login clears the count (never a permanent lock, which an administrator lifts). */
  success(key: string): void {
    const record = this.records.get(key);
    if (record && !record.permanent) this.records.delete(key);
  }

  size(): number {
    return this.records.size;
  }

  private waitSeconds(failures: number): number {
    const { failureFactor, waitIncrementSeconds, bruteForceStrategy } = this.settings;
    if (failures < failureFactor) return 0;
    return bruteForceStrategy === 'LINEAR'
      ? waitIncrementSeconds * (1 + failures - failureFactor)
      : waitIncrementSeconds * Math.floor(failures / failureFactor);
  }

  /** Drops the record that failed longest ago, preferring ones no longer locked. */
  private evictIfFull(): void {
    if (this.records.size < this.options.maxEntries) return;
    const now = this.now();
    for (const [key, record] of this.records) {
      if (!record.permanent && record.notBefore <= now) {
        this.records.delete(key);
        return;
      }
    }
    const oldest = this.records.keys().next();
    if (!oldest.done) this.records.delete(oldest.value);
  }
}

/**
 * Throttles password guesses per user and per client address. While either is locked every login is
 * refused with the same answer as a wrong password, whatever the password, so the lock tells nothing;
 * refused attempts are not counted (as in Keycloak, they would only lengthen the wait).
 */
export class LoginThrottle {
  private readonly users: FailureCounter | undefined;
  private readonly addresses: FailureCounter | undefined;

  constructor(settings: BruteForceSettings, now: Clock, options: { maxEntries?: number } = {}) {
    if (!settings.bruteForceProtected) return;
    const maxEntries = options.maxEntries ?? MAX_TRACKED_ENTRIES;
    this.users = new FailureCounter(settings, now, { quickLoginRule: true, maxEntries });
    this.addresses = new FailureCounter(
      {
        ...settings,
        permanentLockout: false,
        failureFactor: settings.failureFactor * ADDRESS_FAILURE_FACTOR_MULTIPLIER,
      },
      now,
      { quickLoginRule: false, maxEntries },
    );
  }

  /** Whether a login as this user (undefined: no such user) from this address is refused unchecked. */
  isLocked(userId: string | undefined, address: string): boolean {
    if (this.addresses?.isLocked(address)) return true;
    return userId !== undefined && this.users?.isLocked(userId) === true;
  }

  failure(userId: string | undefined, address: string): void {
    this.addresses?.failure(address);
    if (userId !== undefined) this.users?.failure(userId);
  }

  success(userId: string): void {
    this.users?.success(userId);
  }

  /** How many users and addresses are tracked: bounded by `maxEntries` each. */
  trackedEntries(): { users: number; addresses: number } {
    return { users: this.users?.size() ?? 0, addresses: this.addresses?.size() ?? 0 };
  }
}
