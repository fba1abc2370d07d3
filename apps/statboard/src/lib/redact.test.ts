import { describe, expect, it } from 'vitest';
import { REDACTED, redactUrl } from './redact.ts';

const KEY = 'stb_website_0b9f2c3e-5d6a-4b7c-8d9e-0f1a2b3c4d5e_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';

describe('redactUrl', () => {
  it('returns a URL without a query string as it is', () => {
    const url = '/api/v1/leaderboards';
    expect(redactUrl(url)).toBe(url);
  });

  it.each([
    [`/api/v1/seasons?api_key=${KEY}`, `/api/v1/seasons?api_key=${REDACTED}`],
    [`/api/v1/seasons?page=2&KEY=${KEY}&x=1`, `/api/v1/seasons?page=2&KEY=${REDACTED}&x=1`],
    [`/api/v1/seasons?whatever=${encodeURIComponent(KEY)}`, `/api/v1/seasons?whatever=${REDACTED}`],
    [
      '/auth/callback?code=abc123&state=xyz&iss=https%3A%2F%2Fidp',
      `/auth/callback?code=${REDACTED}&state=${REDACTED}&iss=https%3A%2F%2Fidp`,
    ],
    [
      '/x?token=t&access_token=a&password=p&secret=s',
      `/x?token=${REDACTED}&access_token=${REDACTED}&password=${REDACTED}&secret=${REDACTED}`,
    ],
  ])('redacts %s', (url, expected) => {
    expect(redactUrl(url)).toBe(expected);
  });

  it('keeps ordinary parameters, and survives malformed escapes', () => {
    const url = '/api/v1/leaderboards?season=s1&stat=minecraft.custom%3Aminecraft.jump&limit=10';
    expect(redactUrl(url)).toBe(url);
    expect(redactUrl('/x?key=%E0%A4%A')).toBe(`/x?key=${REDACTED}`);
  });
});
