import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  calculateJwkThumbprint,
  exportJWK,
  generateKeyPair,
  importJWK,
  SignJWT,
  type CryptoKey,
  type JWK,
  type JWTHeaderParameters,
  type JWTPayload,
} from 'jose';

/** A signing key as an attacker (or, with the realm's key file, a test) holds it. */
export interface ForgingKey {
  kid: string;
  privateKey: CryptoKey;
  publicJwk: JWK;
  /** The private key as a JWK, to import it for other algorithms. */
  privateJwk: JWK;
}

/** base64url of a string or of an object's JSON: for hand-made token segments jose will not produce. */
export const segment = (value: string | object): string =>
  Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

/** The identity provider's active signing key, read from the `keys.json` it keeps in `keysDir`. */
export async function realmSigningKey(keysDir: string): Promise<ForgingKey> {
  const file = JSON.parse(await readFile(join(keysDir, 'keys.json'), 'utf8')) as {
    keys: JWK[];
    active: string;
  };
  const privateJwk = file.keys.find((key) => key.kid === file.active);
  if (!privateJwk) throw new Error(`no active key in ${keysDir}`);
  const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...publicJwk } = privateJwk;
  return {
    kid: file.active,
    privateKey: (await importJWK(privateJwk, 'RS256')) as CryptoKey,
    publicJwk,
    privateJwk,
  };
}

/** A fresh RSA key nobody published, with its RFC 7638 thumbprint as kid (or the kid given). */
export async function attackerKey(kid?: string): Promise<ForgingKey> {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  const publicJwk = await exportJWK(publicKey);
  return {
    kid: kid ?? (await calculateJwkThumbprint(publicJwk)),
    privateKey,
    publicJwk,
    privateJwk: await exportJWK(privateKey),
  };
}

/** Signs `claims` with `key` under `header` (RS256 and the key's kid unless the header says otherwise). */
export function sign(
  claims: JWTPayload,
  key: { kid?: string; privateKey: CryptoKey | Uint8Array },
  header: Partial<JWTHeaderParameters> = {},
  critical: Record<string, boolean> = {},
): Promise<string> {
  return new SignJWT(claims)
    .setProtectedHeader({
      alg: 'RS256',
      typ: 'JWT',
      ...(key.kid === undefined ? {} : { kid: key.kid }),
      ...header,
    })
    .sign(key.privateKey, { crit: critical });
}

/** The same RSA private key, imported for another algorithm (RS512, PS256, …). */
export async function asAlgorithm(key: ForgingKey, alg: string): Promise<CryptoKey> {
  const { alg: _alg, key_ops: _ops, use: _use, ...jwk } = key.privateJwk;
  return (await importJWK(jwk, alg)) as CryptoKey;
}

/** An unsigned token (`alg: none`) as the classic attack sends it. */
export const unsignedToken = (claims: JWTPayload, header: Record<string, unknown>, signature = ''): string =>
  `${segment(header)}.${segment(claims)}.${signature}`;

export const randomKid = (): string => randomUUID();
