import { describe, expect, it } from 'vitest';
import { type DescribedRecord, describeAudit } from './describe.ts';

function record(r: Partial<DescribedRecord> & Pick<DescribedRecord, 'action' | 'target_type'>): DescribedRecord {
  return {
    target_id: '00000000-0000-4000-8000-000000000001',
    before: null,
    after: null,
    actor_display_name: 'Ada',
    actor_user_id: '00000000-0000-4000-8000-0000000000aa',
    actor_label: null,
    current_name: null,
    ...r,
  };
}

describe('the words of an audit record', () => {
  it('names a created key by its name', () => {
    expect(
      describeAudit(record({ action: 'API_KEY_CREATED', target_type: 'api_key', after: { name: 'Mod uploads' } })),
    ).toEqual({ target_name: 'Mod uploads', summary: 'Created API key Mod uploads' });
  });

  it('names a rotated key by the key it replaced, and a revoked one by its name before', () => {
    const rotated = describeAudit(
      record({
        action: 'API_KEY_ROTATED',
        target_type: 'api_key',
        before: { name: 'Website' },
        after: { revoked: { name: 'Website' }, replacement: { name: 'Website' }, grace_seconds: 60 },
      }),
    );
    expect(rotated.summary).toBe('Rotated API key Website');
    expect(
      describeAudit(record({ action: 'API_KEY_REVOKED', target_type: 'api_key', before: { name: 'Old' }, after: {} }))
        .summary,
    ).toBe('Revoked API key Old');
  });

  it('says how a role changed, by the user’s email, with the role as people read it', () => {
    const base = { action: 'USER_ROLE_UPDATED', target_type: 'user' } as const;
    const alice = { email: 'alice@example.com', display_name: 'Alice' };
    expect(
      describeAudit(record({ ...base, before: { ...alice, role: 'analyst' }, after: { ...alice, role: 'admin' } })),
    ).toEqual({ target_name: 'alice@example.com', summary: 'Changed the role of alice@example.com to Admin' });
    expect(
      describeAudit(record({ ...base, before: { ...alice, role: null }, after: { ...alice, role: 'readonly' } }))
        .summary,
    ).toBe('Gave alice@example.com the role Read-only');
    expect(
      describeAudit(record({ ...base, before: { ...alice, role: 'admin' }, after: { ...alice, role: null } })).summary,
    ).toBe('Removed alice@example.com from the workspace');
    // Without an email, the name the user goes by.
    expect(
      describeAudit(
        record({ ...base, before: { display_name: 'Bob', role: null }, after: { display_name: 'Bob', role: 'owner' } }),
      ).summary,
    ).toBe('Gave Bob the role Owner');
  });

  it('activates a season by name, and says when a new one was activated at once', () => {
    expect(
      describeAudit(
        record({
          action: 'SEASON_ACTIVATED',
          target_type: 'season',
          before: { season: { name: 'Season 2' }, active_season: { name: 'Season 1' } },
          after: { name: 'Season 2', active: true },
        }),
      ),
    ).toEqual({ target_name: 'Season 2', summary: 'Activated season Season 2' });
    expect(
      describeAudit(record({ action: 'SEASON_CREATED', target_type: 'season', after: { name: 'S3', active: true } }))
        .summary,
    ).toBe('Created and activated season S3');
  });

  it('names a server by its display name, else its name, and says when it was disabled or enabled', () => {
    const server = { name: 'mc.example.com', hostname: 'mc.example.com', port: 25565 };
    expect(
      describeAudit(
        record({
          action: 'SERVER_UPDATED',
          target_type: 'server',
          before: { ...server, display_name: 'Survival', enabled: true },
          after: { ...server, display_name: 'Survival', enabled: false },
        }),
      ),
    ).toEqual({ target_name: 'Survival', summary: 'Disabled server Survival' });
    expect(
      describeAudit(
        record({ action: 'SERVER_CREATED', target_type: 'server', after: { ...server, display_name: null } }),
      ).summary,
    ).toBe('Registered server mc.example.com');
  });

  it('hides and shows players by username, and names statistics by their display name', () => {
    expect(
      describeAudit(
        record({
          action: 'PLAYER_UPDATED',
          target_type: 'player',
          before: { username: 'Alex', public: true },
          after: { username: 'Alex', public: false },
        }),
      ).summary,
    ).toBe('Hid player Alex');
    expect(
      describeAudit(
        record({
          action: 'STAT_UPDATED',
          target_type: 'stat_definition',
          target_id: 'minecraft.custom:minecraft.play_time',
          after: { key: 'minecraft.custom:minecraft.play_time', display_name: 'Time Played' },
        }),
      ).summary,
    ).toBe('Changed statistic Time Played');
  });

  it('says what a correction removed, and names an erased player by UUID only', () => {
    const uuid = '3f2b6c1e-8a4d-4e2f-9b1a-2c3d4e5f6a7b';
    expect(
      describeAudit(
        record({
          action: 'PLAYER_STATS_REMOVED',
          target_type: 'player',
          before: { uuid, username: 'Steve', season: { name: 'Season 2' }, stat: null, server: null },
          after: { values_removed: 1042, history_removed: 3 },
        }),
      ).summary,
    ).toBe('Removed 1,042 values of player Steve in Season 2');
    expect(
      describeAudit(
        record({
          action: 'PLAYER_STATS_REMOVED',
          target_type: 'player',
          before: { uuid, username: 'Steve', season: { name: 'Season 2' }, stat: 'minecraft.mined:minecraft.stone' },
          after: { values_removed: 1, history_removed: 0 },
        }),
      ).summary,
    ).toBe('Removed 1 value of minecraft.mined:minecraft.stone of player Steve in Season 2');
    const erased = describeAudit(
      record({ action: 'PLAYER_ERASED', target_type: 'player', before: { uuid }, after: { uuid, blocked: true } }),
    );
    expect(erased).toEqual({ target_name: uuid, summary: `Erased player ${uuid} and blocked their uploads` });
    expect(
      describeAudit(record({ action: 'PLAYER_ERASED', target_type: 'player', after: { uuid, blocked: false } }))
        .summary,
    ).toBe(`Erased player ${uuid}`);
    expect(
      describeAudit(record({ action: 'PLAYER_UNBLOCKED', target_type: 'player', before: { uuid }, after: { uuid } }))
        .summary,
    ).toBe(`Unblocked player ${uuid}: their uploads are accepted again`);
  });

  it('says which held values of which player a review stored or discarded', () => {
    const item = { status: 'open', player: { uuid: 'u', username: 'Steve' }, items: [{}, {}] };
    expect(
      describeAudit(
        record({
          action: 'REVIEW_APPROVED',
          target_type: 'review_item',
          before: item,
          after: { ...item, status: 'approved' },
        }),
      ),
    ).toEqual({ target_name: 'Steve', summary: 'Approved the 2 held values of Steve: stored' });
    expect(
      describeAudit(
        record({
          action: 'REVIEW_REJECTED',
          target_type: 'review_item',
          after: { ...item, items: [{}], status: 'rejected' },
        }),
      ).summary,
    ).toBe('Rejected the 1 held value of Steve: discarded');
  });

  it('falls back to the target’s name today when the record kept none (an import, a bootstrap redeemed)', () => {
    expect(
      describeAudit(
        record({
          action: 'STATS_IMPORTED',
          target_type: 'season',
          after: { world: '/srv/world', files: 3, values: 1200 },
          current_name: 'Season 1',
        }),
      ),
    ).toEqual({ target_name: 'Season 1', summary: 'Imported 1,200 values into season Season 1' });
    const self = '00000000-0000-4000-8000-0000000000aa';
    expect(
      describeAudit(
        record({
          action: 'WORKSPACE_OWNER_BOOTSTRAPPED',
          target_type: 'user',
          target_id: self,
          after: { workspace_id: 'w', user_id: self, role: 'owner' },
        }),
      ).summary,
    ).toBe('Ada became an owner with a bootstrap token');
  });

  it('gives null for a target nothing names, and plain words for an action it has no sentence for', () => {
    expect(
      describeAudit(
        record({ action: 'BOOTSTRAP_TOKEN_CREATED', target_type: 'bootstrap_token', target_id: null, after: {} }),
      ),
    ).toEqual({ target_name: null, summary: 'Created a bootstrap token' });
    expect(describeAudit(record({ action: 'PLAYER_MERGED', target_type: 'player', before: { id: 'u' } }))).toEqual({
      target_name: null,
      summary: 'Player merged',
    });
    expect(
      describeAudit(record({ action: 'API_KEY_DISABLED', target_type: 'api_key', after: { name: 'Bot' } })).summary,
    ).toBe('API key disabled: Bot');
  });

  it('says when a season started or ended by its schedule, and what a scoring change means', () => {
    const system = { actor_display_name: null, actor_user_id: null, actor_label: 'system' };
    const season = { target_type: 'season', after: { name: 'Summer' } };
    expect(describeAudit(record({ ...season, ...system, action: 'SEASON_ACTIVATED' })).summary).toBe(
      'Season Summer started on schedule',
    );
    expect(describeAudit(record({ ...season, ...system, action: 'SEASON_ENDED' })).summary).toBe(
      'Season Summer ended on schedule',
    );
    expect(describeAudit(record({ ...season, action: 'SEASON_ACTIVATED' })).summary).toBe('Activated season Summer');
    expect(
      describeAudit(
        record({
          action: 'SEASON_UPDATED',
          target_type: 'season',
          before: { name: 'Summer', scoring: 'absolute' },
          after: { name: 'Summer', scoring: 'gains' },
        }),
      ).summary,
    ).toBe('Changed season Summer to rank gains since it began');
  });
});
