import { describe, expect, it } from 'vitest';
import { isLoopbackUrl } from './loopback-url.ts';

describe('isLoopbackUrl', () => {
  it.each([
    'http://127.0.0.1:8080',
    'http://127.1.2.3',
    'http://localhost:8080',
    'http://LOCALHOST',
    'http://app.localhost',
    'http://[::1]:8080',
    'http://0.0.0.0:8080',
    'http://[::]:8080',
    'http://[::ffff:127.0.0.1]:8080',
  ])('%s reaches only the machine it is used on', (url) => {
    expect(isLoopbackUrl(url)).toBe(true);
  });

  it.each([
    'https://stats.example.com',
    'http://192.168.1.20:8080',
    'http://10.0.0.5',
    'http://[2001:db8::1]:8080',
    'http://localhost.example.com',
    'not a url',
  ])('%s may be reached by others', (url) => {
    expect(isLoopbackUrl(url)).toBe(false);
  });
});
