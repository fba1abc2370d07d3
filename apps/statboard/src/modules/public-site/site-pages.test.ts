import { describe, expect, it } from 'vitest';
import { normalizeOrigin } from './service.ts';
import { matches, pageRequest } from './site-pages.ts';

describe('the public pages: addresses, validators and origins', () => {
  it('reads a page request from an address, and refuses what no page is', () => {
    expect(pageRequest('board', { stat: 'a:b' }, {})).toEqual({ kind: 'board', stat: 'a:b', season: null, page: 1 });
    expect(pageRequest('board', { stat: 'a:b' }, { season: 's1', page: '3' })).toMatchObject({ season: 's1', page: 3 });
    for (const page of ['0', '202', '-1', '1.5', 'x'])
      expect(pageRequest('board', { stat: 'a:b' }, { page })).toBeNull();
    expect(pageRequest('embed', { stat: 'a:b' }, {})).toMatchObject({ limit: 10, theme: null });
    expect(pageRequest('embed', { stat: 'a:b' }, { limit: '25', theme: 'dark' })).toMatchObject({
      limit: 25,
      theme: 'dark',
    });
    expect(pageRequest('embed', { stat: 'a:b' }, { limit: '0' })).toMatchObject({ limit: 1 });
    expect(pageRequest('embed', { stat: 'a:b' }, { limit: '26' })).toMatchObject({ limit: 25 });
    for (const query of [{ limit: '-1' }, { limit: 'ten' }, { limit: '1234567' }, { theme: 'blue' }]) {
      expect(pageRequest('embed', { stat: 'a:b' }, query)).toBeNull();
    }
    expect(pageRequest('players', {}, { q: `  ${'x'.repeat(80)} ` })).toMatchObject({ q: 'x'.repeat(64), page: 1 });
    expect(pageRequest('player', { player: 'y'.repeat(65) }, {})).toBeNull();
  });

  it('matches If-None-Match weakly, in a list, or with *', () => {
    expect(matches('W/"abc"', 'W/"abc"')).toBe(true);
    expect(matches('"abc"', 'W/"abc"')).toBe(true);
    expect(matches('"x", W/"abc"', 'W/"abc"')).toBe(true);
    expect(matches('*', 'W/"abc"')).toBe(true);
    expect(matches('W/"abd"', 'W/"abc"')).toBe(false);
    expect(matches(undefined, 'W/"abc"')).toBe(false);
  });

  it('takes origins as scheme://host[:port] only', () => {
    expect(normalizeOrigin('https://Club.Example/')).toBe('https://club.example');
    expect(normalizeOrigin('http://127.0.0.1:8080')).toBe('http://127.0.0.1:8080');
    expect(normalizeOrigin('https://*.club.example')).toBe('https://*.club.example');
    for (const bad of [
      'club.example',
      'https://club.example/x',
      'ftp://club.example',
      'https://u@club.example',
      '*',
      // Hosts URL accepts, which would end or break the CSP directive (`frame-ancestors`) they are written into.
      'https://club.example;script-src',
      "https://club'.example",
      'https://club".example',
      'https://club$.example',
    ]) {
      expect(normalizeOrigin(bad)).toBeNull();
    }
  });
});
