import { type KeyboardEvent, useEffect, useId, useMemo, useState } from 'react';
import { formatCount } from './ui.tsx';

/** What the picker needs of a statistic (a definition of `/admin/stats` has it). */
export interface PickableStat {
  key: string;
  display_name: string;
}

/** The statistic pages open on when it exists: what players compare first. */
export const TIME_PLAYED = 'minecraft.custom:minecraft.play_time';

/** The game's statistics tabs, then everything of other namespaces. */
const GROUPS = ['General', 'Items', 'Mobs', 'Other'] as const;
type Group = (typeof GROUPS)[number];
const ITEM_FAMILIES = new Set(['mined', 'crafted', 'used', 'broken', 'picked_up', 'dropped']);
/** More options than a list can usefully show: the rest is reached by typing. */
const MAX_SHOWN = 200;

/** The tab of the game's statistics screen a key belongs to (General, Items, Mobs), or Other. */
export function statGroup(key: string): Group {
  const m = /^minecraft\.([a-z0-9_]+):/.exec(key);
  if (!m) return 'Other';
  if (m[1] === 'custom') return 'General';
  if (ITEM_FAMILIES.has(m[1]!)) return 'Items';
  return m[1] === 'killed' || m[1] === 'killed_by' ? 'Mobs' : 'Other';
}

/** True when every word of `query` is in the statistic's name or key, in any case ("stone mi"). */
export function matchesStat(stat: PickableStat, query: string): boolean {
  const text = `${stat.display_name} ${stat.key}`.toLowerCase();
  return query
    .toLowerCase()
    .split(/\s+/)
    .every((w) => text.includes(w));
}

/** Statistics by group (General, Items, Mobs, Other), then by name. */
export function byGroupAndName(a: PickableStat, b: PickableStat): number {
  return (
    GROUPS.indexOf(statGroup(a.key)) - GROUPS.indexOf(statGroup(b.key)) ||
    a.display_name.localeCompare(b.display_name) ||
    a.key.localeCompare(b.key)
  );
}

/**
 * Picks one statistic by its name: a labelled combobox (WAI-ARIA's "combobox with a listbox popup") that filters
 * as you type, with the options grouped like the game's statistics tabs. Arrow keys move, Enter picks, Escape
 * closes and keeps the current statistic.
 */
export function StatPicker({
  label,
  stats,
  value,
  onChange,
}: {
  label: string;
  stats: readonly PickableStat[];
  /** The chosen statistic's key ('' for none yet). */
  value: string;
  onChange: (key: string) => void;
}) {
  const id = useId();
  const [query, setQuery] = useState<string | null>(null);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const selected = stats.find((s) => s.key === value);
  const matches = useMemo(() => stats.filter((s) => matchesStat(s, query ?? '')).sort(byGroupAndName), [stats, query]);
  const shown = matches.slice(0, MAX_SHOWN);
  const optionId = (i: number) => `${id}-option-${i}`;
  useEffect(() => {
    if (open) document.getElementById(optionId(active))?.scrollIntoView?.({ block: 'nearest' });
  });

  const close = () => {
    setOpen(false);
    setQuery(null);
  };
  const choose = (s: PickableStat) => {
    close();
    if (s.key !== value) onChange(s.key);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      if (!open) {
        setOpen(true);
        setActive(
          Math.max(
            0,
            shown.findIndex((s) => s.key === value),
          ),
        );
      } else {
        setActive((a) => Math.min(Math.max(a + (e.key === 'ArrowDown' ? 1 : -1), 0), shown.length - 1));
      }
    } else if (e.key === 'Enter' && open) {
      e.preventDefault();
      const s = shown[active];
      if (s) choose(s);
    } else if (e.key === 'Escape' && open) {
      e.preventDefault();
      close();
    }
  };

  const groups = GROUPS.map((g) => ({
    group: g,
    options: shown.map((stat, index) => ({ stat, index })).filter((o) => statGroup(o.stat.key) === g),
  })).filter((g) => g.options.length > 0);

  return (
    <div className="stat-picker">
      <label htmlFor={`${id}-input`}>{label}</label>
      <input
        id={`${id}-input`}
        role="combobox"
        aria-expanded={open}
        aria-controls={`${id}-list`}
        aria-autocomplete="list"
        aria-activedescendant={open && shown[active] ? optionId(active) : undefined}
        autoComplete="off"
        spellCheck={false}
        placeholder="Type to search"
        value={query ?? selected?.display_name ?? ''}
        onChange={(e) => {
          setQuery(e.target.value);
          setOpen(true);
          setActive(0);
        }}
        onFocus={(e) => e.target.select()}
        onClick={() => setOpen(true)}
        onBlur={close}
        onKeyDown={onKeyDown}
      />
      <div className="stat-picker-popup" hidden={!open}>
        <div id={`${id}-list`} role="listbox" aria-label={label}>
          {groups.map(({ group, options }) => (
            // biome-ignore lint/a11y/useSemanticElements: a listbox groups its options with role=group (a fieldset groups form fields)
            <div key={group} role="group" aria-labelledby={`${id}-group-${group}`}>
              <div id={`${id}-group-${group}`} role="presentation" className="stat-picker-group">
                {group}
              </div>
              {options.map(({ stat, index }) => (
                <div
                  key={stat.key}
                  id={optionId(index)}
                  role="option"
                  // Focus stays in the input (aria-activedescendant); -1 only makes the option focusable by script.
                  tabIndex={-1}
                  aria-selected={index === active}
                  className={stat.key === value ? 'current' : undefined}
                  // Before the input's blur, which would close the list first.
                  onMouseDown={(e) => {
                    e.preventDefault();
                    choose(stat);
                  }}
                  onMouseMove={() => setActive(index)}
                >
                  {stat.display_name}
                  {stat.display_name !== stat.key ? (
                    <span className="small muted" aria-hidden="true">
                      {' '}
                      {stat.key}
                    </span>
                  ) : null}
                </div>
              ))}
            </div>
          ))}
        </div>
        {matches.length === 0 ? (
          <p className="muted small">No statistic matches.</p>
        ) : matches.length > shown.length ? (
          <p className="muted small">
            {shown.length} of {formatCount(matches.length)} shown: type to narrow the list.
          </p>
        ) : null}
      </div>
    </div>
  );
}
