import { describe, expect, it } from 'vitest';
import { AppError, withFirstProblem } from './errors.ts';

describe('422 messages', () => {
  it('a summary names its first problem, and counts the others', () => {
    expect(withFirstProblem('The season is invalid.', { slug: ['must match pattern "^[a-z]+$"'] })).toBe(
      'The season is invalid: slug must match pattern "^[a-z]+$".',
    );
    expect(
      withFirstProblem('The batch is invalid.', { 'player.uuid': ['must be a UUID'], stats: ['is required', 'x'] }),
    ).toBe('The batch is invalid: player.uuid must be a UUID (and 2 more problems).');
    expect(withFirstProblem('The request is invalid.', {})).toBe('The request is invalid.');
  });

  it('AppError names the first problem of INVALID_PAYLOAD summaries only; details stay as they are', () => {
    const details = { 'client.game_version': ['is required'] };
    const e = new AppError('INVALID_PAYLOAD', 'The batch is invalid.', details);
    expect(e.message).toBe('The batch is invalid: client.game_version is required.');
    expect(e.details).toEqual({ 'client.game_version': ['is required'] });
    expect(new AppError('INVALID_PAYLOAD', undefined, details).message).toBe(
      'The request is invalid: client.game_version is required.',
    );
    // A message that says what is wrong already is kept.
    expect(new AppError('INVALID_PAYLOAD', '/srv/world/stats cannot be read.', { world: ['x'] }).message).toBe(
      '/srv/world/stats cannot be read.',
    );
    expect(new AppError('NOT_FOUND', 'The season is invalid.', { season: ['x'] }).message).toBe(
      'The season is invalid.',
    );
  });
});
