import type { StatUnit } from '@statboard/sdk/format';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { api, ok } from './api.ts';

// Lists several pages read, under one query key each: a change anywhere refreshes them everywhere.

export function useServers(options: { refetchInterval?: number } = {}) {
  return useQuery({ queryKey: ['servers'], queryFn: () => ok(api.GET('/api/v1/admin/servers')), ...options });
}

export function useSeasons() {
  return useQuery({ queryKey: ['seasons'], queryFn: () => ok(api.GET('/api/v1/admin/seasons')) });
}

export function useStatDefinitions() {
  return useQuery({ queryKey: ['stats'], queryFn: () => ok(api.GET('/api/v1/admin/stats')) });
}

/**
 * A statistic's name and unit by key, from the definitions (a key not among them, while they load: the key
 * itself, counted).
 */
export function useStatLabels(): (key: string) => { name: string; unit: StatUnit } {
  const definitions = useStatDefinitions();
  return useMemo(() => {
    const byKey = new Map((definitions.data?.data ?? []).map((d) => [d.key, d]));
    return (key: string) => {
      const d = byKey.get(key);
      return { name: d?.display_name ?? key, unit: d?.unit ?? 'count' };
    };
  }, [definitions.data]);
}

export function useUsers(enabled = true) {
  return useQuery({ queryKey: ['users'], enabled, queryFn: () => ok(api.GET('/api/v1/admin/users')) });
}

export function useWebhooks(enabled = true) {
  return useQuery({ queryKey: ['webhooks'], enabled, queryFn: () => ok(api.GET('/api/v1/admin/webhooks')) });
}

export function useOnline() {
  return useQuery({
    queryKey: ['online'],
    queryFn: () => ok(api.GET('/api/v1/admin/online')),
    refetchInterval: 30_000,
  });
}
