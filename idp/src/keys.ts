import { randomBytes, randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  calculateJwkThumbprint,
  exportJWK,
  exportSPKI,
  generateKeyPair,
  importJWK,
  type CryptoKey,
  type JSONWebKeySet,
  type JWK,
} from 'jose';
import type { Clock } from './clock.js';

export const SIGNING_ALGORITHM = 'RS256';
export const KEYS_FILE_NAME = 'keys.json';

export interface SigningKey {
  /** RFC 7638 thumbprint of the public key. */
  kid: string;
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  publicJwk: JWK;
  privateJwk: JWK;
  /** When the key starts signing (epoch seconds); until then it is only published. Unset: from the start. */
  activeFrom?: number;
  /** Set in old key files: when a rotated-out key left the JWKS (epoch seconds). */
  publishedUntil?: number;
}

export interface KeyRotation {
  kid: string;
  /** When the new key starts signing: it is in the JWKS from now on, and signs only from then. */
  activeFrom: string;
  /** The key that signs until then. */
  previousKid: string;
  /** When the previous key leaves the JWKS: the grace period after the new key takes over. */
  previousPublishedUntil: string;
}

export interface KeyStoreOptions {
  /** Folder for `keys.json`, so tokens keep verifying after a restart; omitted, keys live in memory only. */
  dir?: string;
  now: Clock;
  /** How long a rotated-out key stays published: at least the access token lifespan. */
  graceSeconds: number;
  /**
   * How long a new key is published before it signs; default 0. Set it to at least the gateway's JWKS
   * refetch cooldown (`IDP_JWKS_COOLDOWN_MS`) so the gateway can always fetch a key before tokens use it.
   */
  activationDelaySeconds?: number;
  /**
   * Makes the private JWK of each new signing key (the first, and one per rotation); default a fresh RSA-2048
   * key. Tests hand out keys made once, as they hand in a clock: generating one costs 0.1–0.3 CPU-seconds.
   */
  generateKey?: () => Promise<JWK>;
}

/** The on-disk form: a JWK set of private keys, newest first, with when each signs. */
interface KeysFile {
  keys: JWK[];
  /** The key signing when the file was written (kept for tools that read the file). */
  active: string;
  activeFrom?: Record<string, number>;
  publishedUntil: Record<string, number>;
}

/** A bad keys folder; the message says what to do. */
export class KeysFileError extends Error {
  override name = 'KeysFileError';
}

/** Too many keys are waiting or retiring: rotating again would only grow the JWKS. */
export class KeyRotationLimitError extends Error {
  override name = 'KeyRotationLimitError';
}

/** At most this many keys are published at once (signing, waiting to sign, retiring). */
export const MAX_PUBLISHED_KEYS = 10;

/**
 * The realm's RSA signing keys. A new key is published first and signs only after the activation delay,
 * so a verifier that refetches the JWKS at most once per cooldown always finds it; keys rotated out stay
 * in the JWKS for a grace period after they stop signing, so tokens they signed keep verifying until they
 * expire. Keys are kept newest first.
 */
export class KeyStore {
  private keys: SigningKey[];
  private rotation: Promise<unknown> = Promise.resolve();
  /** Refresh tokens are HS512-signed with a per-process secret, as Keycloak does with its HMAC key. */
  readonly refreshTokenKey = { kid: randomUUID(), secret: new Uint8Array(randomBytes(64)) };

  private constructor(
    private readonly options: KeyStoreOptions,
    keys: SigningKey[],
  ) {
    this.keys = keys;
  }

  static async open(options: KeyStoreOptions): Promise<KeyStore> {
    const stored = options.dir === undefined ? undefined : await readKeysFile(options.dir);
    if (stored) {
      const store = new KeyStore(options, stored);
      if (store.prune()) await store.persist();
      return store;
    }
    const store = new KeyStore(options, [await generateSigningKey(options.generateKey)]);
    await store.persist();
    return store;
  }

  /** The key that signs new tokens: the newest key whose activation time has come. */
  get active(): SigningKey {
    return this.keys[this.activeIndex()]!;
  }

  /** The keys in the JWKS: the signing key first, then keys waiting to sign, then retiring ones. */
  published(): readonly SigningKey[] {
    this.prune();
    const index = this.activeIndex();
    return [this.keys[index]!, ...this.keys.slice(0, index), ...this.keys.slice(index + 1)];
  }

  find(kid: string | undefined): SigningKey | undefined {
    return kid === undefined ? undefined : this.published().find((key) => key.kid === kid);
  }

  jwks(): JSONWebKeySet {
    return { keys: this.published().map((key) => key.publicJwk) };
  }

  /** Base64 SPKI of the active key, as Keycloak's realm endpoint publishes it in `public_key`. */
  async activePublicKeyBase64(): Promise<string> {
    const pem = await exportSPKI(this.active.publicKey);
    return pem.replace(/-----(BEGIN|END) PUBLIC KEY-----/g, '').replace(/\s+/g, '');
  }

  /**
   * Publishes a new key that signs after the activation delay; the current key signs until then and stays
   * published for the grace period after that.
   */
  rotate(): Promise<KeyRotation> {
    const next = this.rotation.then(async () => {
      this.prune();
      if (this.keys.length >= MAX_PUBLISHED_KEYS) {
        throw new KeyRotationLimitError(
          `${this.keys.length} keys are already published; rotate again once older keys have left the JWKS`,
        );
      }
      const previous = this.active;
      const fresh = await generateSigningKey(this.options.generateKey);
      const nowSeconds = Math.floor(this.options.now() / 1000);
      fresh.activeFrom = nowSeconds + (this.options.activationDelaySeconds ?? 0);
      this.keys = [fresh, ...this.keys];
      await this.persist();
      // The signing key retires when the next newer key takes over: this one, or one already waiting.
      const previousUntil = this.publishedUntil(this.keys.indexOf(previous)) ?? fresh.activeFrom;
      return {
        kid: fresh.kid,
        activeFrom: new Date(fresh.activeFrom * 1000).toISOString(),
        previousKid: previous.kid,
        previousPublishedUntil: new Date(previousUntil * 1000).toISOString(),
      };
    });
    this.rotation = next.catch(() => undefined);
    return next;
  }

  private activeIndex(): number {
    const nowSeconds = Math.floor(this.options.now() / 1000);
    const index = this.keys.findIndex((key) => key.activeFrom === undefined || key.activeFrom <= nowSeconds);
    // The oldest key signs if none is due yet (only possible with a hand-edited file).
    return index < 0 ? this.keys.length - 1 : index;
  }

  /** When an older key leaves the JWKS: the grace period after the next newer key took over from it. */
  private publishedUntil(index: number): number | undefined {
    const key = this.keys[index]!;
    const successor = this.keys[index - 1];
    if (successor?.activeFrom === undefined) return key.publishedUntil;
    return successor.activeFrom + this.options.graceSeconds;
  }

  /** Drops keys past their grace period (never the signing key or one waiting to sign); true if any went. */
  private prune(): boolean {
    const nowSeconds = Math.floor(this.options.now() / 1000);
    const active = this.activeIndex();
    const kept = this.keys.filter((_, index) => {
      if (index <= active) return true;
      const until = this.publishedUntil(index);
      return until === undefined || until > nowSeconds;
    });
    const changed = kept.length !== this.keys.length;
    this.keys = kept;
    return changed;
  }

  private async persist(): Promise<void> {
    if (this.options.dir === undefined) return;
    const file: KeysFile = {
      keys: this.keys.map((key) => key.privateJwk),
      active: this.active.kid,
      activeFrom: Object.fromEntries(
        this.keys.flatMap((key) => (key.activeFrom === undefined ? [] : [[key.kid, key.activeFrom]])),
      ),
      publishedUntil: Object.fromEntries(
        this.keys.flatMap((key, index) => {
          const until = index === 0 ? undefined : this.publishedUntil(index);
          return until === undefined ? [] : [[key.kid, until]];
        }),
      ),
    };
    await mkdir(this.options.dir, { recursive: true, mode: 0o700 });
    const target = join(this.options.dir, KEYS_FILE_NAME);
    const temporary = `${target}.${process.pid}.${randomUUID()}.tmp`;
    // Write then rename, so a crash never leaves a half-written key file behind.
    await writeFile(temporary, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600 });
    await rename(temporary, target);
  }
}

/** A fresh RSA-2048 private key as a JWK: how signing keys are made unless `generateKey` says otherwise. */
export async function generateRsaJwk(): Promise<JWK> {
  const { privateKey } = await generateKeyPair(SIGNING_ALGORITHM, { modulusLength: 2048, extractable: true });
  return exportJWK(privateKey);
}

async function generateSigningKey(generate: () => Promise<JWK> = generateRsaJwk): Promise<SigningKey> {
  return signingKeyFromJwk(await generate());
}

async function signingKeyFromJwk(jwk: JWK): Promise<SigningKey> {
  if (
    jwk.kty !== 'RSA' ||
    typeof jwk.n !== 'string' ||
    typeof jwk.e !== 'string' ||
    typeof jwk.d !== 'string'
  ) {
    throw new Error('not a private RSA key');
  }
  const publicParts: JWK = { kty: 'RSA', n: jwk.n, e: jwk.e };
  const kid = await calculateJwkThumbprint(publicParts, 'sha256');
  const privateJwk: JWK = { ...jwk, kid, alg: SIGNING_ALGORITHM, use: 'sig' };
  const publicJwk: JWK = { kid, kty: 'RSA', alg: SIGNING_ALGORITHM, use: 'sig', n: jwk.n, e: jwk.e };
  return {
    kid,
    privateKey: (await importJWK(privateJwk, SIGNING_ALGORITHM)) as CryptoKey,
    publicKey: (await importJWK(publicJwk, SIGNING_ALGORITHM)) as CryptoKey,
    publicJwk,
    privateJwk,
  };
}

async function readKeysFile(dir: string): Promise<SigningKey[] | undefined> {
  const path = join(dir, KEYS_FILE_NAME);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const broken = (reason: string) =>
    new KeysFileError(
      `The signing keys in ${path} cannot be used (${reason}). Delete the file to create new keys.`,
    );
  let file: Partial<KeysFile>;
  try {
    file = JSON.parse(text) as Partial<KeysFile>;
  } catch {
    throw broken('not JSON');
  }
  if (!Array.isArray(file.keys) || typeof file.active !== 'string')
    throw broken('no "keys" list or "active" kid');
  const publishedUntil = file.publishedUntil ?? {};
  const activeFrom = file.activeFrom ?? {};
  const keys: SigningKey[] = [];
  for (const jwk of file.keys) {
    try {
      const key = await signingKeyFromJwk(jwk);
      const until = publishedUntil[key.kid];
      if (typeof until === 'number') key.publishedUntil = until;
      const from = activeFrom[key.kid];
      if (typeof from === 'number') key.activeFrom = from;
      keys.push(key);
    } catch (error) {
      throw broken(error instanceof Error ? error.message : String(error));
    }
  }
  if (!keys.some((key) => key.kid === file.active)) {
    throw broken(`the active kid ${file.active} is not among the keys`);
  }
  if (file.activeFrom !== undefined) return keys;
  // A file from before delayed activation: its "active" key signs, the others are retiring.
  const active = keys.find((key) => key.kid === file.active)!;
  delete active.publishedUntil;
  return [active, ...keys.filter((key) => key !== active)];
}
