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
  /** Set once the key is rotated out: it stays in the JWKS until then (epoch seconds). */
  publishedUntil?: number;
}

export interface KeyRotation {
  kid: string;
  previousKid: string;
  /** When the previous key leaves the JWKS. */
  previousPublishedUntil: string;
}

export interface KeyStoreOptions {
  /** Folder for `keys.json`, so tokens keep verifying after a restart; omitted, keys live in memory only. */
  dir?: string;
  now: Clock;
  /** How long a rotated-out key stays published: at least the access token lifespan. */
  graceSeconds: number;
}

/** The on-disk form: a JWK set of private keys plus which one signs and when retired ones leave. */
interface KeysFile {
  keys: JWK[];
  active: string;
  publishedUntil: Record<string, number>;
}

/** A bad keys folder; the message says what to do. */
export class KeysFileError extends Error {
  override name = 'KeysFileError';
}

/**
 * The realm's RSA signing keys: one active key signs; keys rotated out stay in the JWKS for a grace period
 * so tokens they signed keep verifying until they expire.
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
    const store = new KeyStore(options, [await generateSigningKey()]);
    await store.persist();
    return store;
  }

  /** The key that signs new tokens. */
  get active(): SigningKey {
    return this.keys[0]!;
  }

  /** The keys in the JWKS: the active one first, then rotated-out keys still in their grace period. */
  published(): readonly SigningKey[] {
    this.prune();
    return this.keys;
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

  /** A new key signs from now on; the old one stays published for the grace period. */
  rotate(): Promise<KeyRotation> {
    const next = this.rotation.then(async () => {
      const fresh = await generateSigningKey();
      const previous = this.active;
      const publishedUntil = Math.floor(this.options.now() / 1000) + this.options.graceSeconds;
      previous.publishedUntil = publishedUntil;
      this.keys = [fresh, ...this.keys];
      this.prune();
      await this.persist();
      return {
        kid: fresh.kid,
        previousKid: previous.kid,
        previousPublishedUntil: new Date(publishedUntil * 1000).toISOString(),
      };
    });
    this.rotation = next.catch(() => undefined);
    return next;
  }

  /** Drops rotated-out keys whose grace period is over; true if any went. */
  private prune(): boolean {
    const nowSeconds = Math.floor(this.options.now() / 1000);
    const kept = this.keys.filter(
      (key, index) => index === 0 || key.publishedUntil === undefined || key.publishedUntil > nowSeconds,
    );
    const changed = kept.length !== this.keys.length;
    this.keys = kept;
    return changed;
  }

  private async persist(): Promise<void> {
    if (this.options.dir === undefined) return;
    const file: KeysFile = {
      keys: this.keys.map((key) => key.privateJwk),
      active: this.active.kid,
      publishedUntil: Object.fromEntries(
        this.keys.flatMap((key) => (key.publishedUntil === undefined ? [] : [[key.kid, key.publishedUntil]])),
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

async function generateSigningKey(): Promise<SigningKey> {
  const { privateKey } = await generateKeyPair(SIGNING_ALGORITHM, { modulusLength: 2048, extractable: true });
  return signingKeyFromJwk(await exportJWK(privateKey));
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
  const keys: SigningKey[] = [];
  for (const jwk of file.keys) {
    try {
      const key = await signingKeyFromJwk(jwk);
      const until = publishedUntil[key.kid];
      if (typeof until === 'number') key.publishedUntil = until;
      keys.push(key);
    } catch (error) {
      throw broken(error instanceof Error ? error.message : String(error));
    }
  }
  const active = keys.find((key) => key.kid === file.active);
  if (!active) throw broken(`the active kid ${file.active} is not among the keys`);
  delete active.publishedUntil;
  return [active, ...keys.filter((key) => key !== active)];
}
