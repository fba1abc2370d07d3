import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DUMMY_DIGEST, formatToken, generateSecret, parseToken, sameDigest, sha256Hex } from './token.ts';

const ID = '0b9f2c3e-5d6a-4b7c-8d9e-0f1a2b3c4d5e';

describe('API key tokens', () => {
  it('generates secrets of 32 random bytes in base64url', () => {
    const a = generateSecret();
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(a, 'base64url')).toHaveLength(32);
    expect(generateSecret()).not.toBe(a);
  });

  it('splits only on the first three underscores, so secrets may contain _ and -', () => {
    const secret = 'ab_cd-ef_gh_ij-kl_mn_op-qr_st_uv-wx_yz_0123456789';
    expect(parseToken(formatToken('client', ID, secret))).toEqual({ type: 'client', id: ID, secret });
  });

  it('lower-cases the key id and accepts every token type including bootstrap', () => {
    const secret = generateSecret();
    for (const type of ['client', 'website', 'integration', 'bootstrap'] as const) {
      expect(parseToken(`stb_${type}_${ID.toUpperCase()}_${secret}`)).toEqual({ type, id: ID, secret });
    }
  });

  it.each([
    ['', 'empty'],
    ['stb_client_', 'no id'],
    [`mst_client_${ID}_${'a'.repeat(43)}`, 'the original service prefix'],
    [`stb_admin_${ID}_${'a'.repeat(43)}`, 'an unknown type'],
    [`stb_client_not-a-uuid_${'a'.repeat(43)}`, 'a bad id'],
    [`stb_client_${ID}_short`, 'a short secret'],
    [`stb_client_${ID}_${'a'.repeat(42)}!`, 'a secret outside base64url'],
    [`stb_client_${ID}_${'a'.repeat(129)}`, 'a secret that is too long'],
  ])('rejects %s (%s)', (token) => {
    expect(parseToken(token)).toBeNull();
  });

  it('splits any well-formed token back into what formatToken joined', () => {
    const secretChar = fc.constantFrom(...'ABCXYZabcxyz0189_-'.split(''));
    fc.assert(
      fc.property(
        fc.constantFrom('client', 'website', 'integration', 'bootstrap' as const),
        fc.uuid(),
        fc.string({ unit: secretChar, minLength: 43, maxLength: 128 }),
        (type, id, secret) => {
          expect(parseToken(formatToken(type, id.toUpperCase(), secret))).toEqual({
            type,
            id: id.toLowerCase(),
            secret,
          });
          expect(parseToken(`${formatToken(type, id, secret)} `)).toBeNull();
        },
      ),
    );
  });

  it('hashes with SHA-256 and compares digests exactly, never matching the dummy digest by accident', () => {
    expect(sha256Hex('secret')).toBe(createHash('sha256').update('secret').digest('hex'));
    const h = sha256Hex('secret');
    expect(sameDigest(h, sha256Hex('secret'))).toBe(true);
    expect(sameDigest(h, sha256Hex('other'))).toBe(false);
    expect(sameDigest(h, DUMMY_DIGEST)).toBe(false);
    expect(sameDigest('zz', h)).toBe(false);
    expect(sameDigest(h, `${h}0`)).toBe(false);
    const digest = fc.stringMatching(/^[0-9a-f]{64}$/);
    fc.assert(fc.property(digest, digest, (a, b) => sameDigest(a, b) === (a === b)));
    fc.assert(
      fc.property(digest, fc.nat(63), (a, i) => {
        const flipped = a.slice(0, i) + (a[i] === '0' ? '1' : '0') + a.slice(i + 1);
        return !sameDigest(a, flipped);
      }),
    );
  });
});
