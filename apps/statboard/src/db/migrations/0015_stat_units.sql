-- What a statistic's value counts, set by an admin: `ticks` (time, 20 per second), `cm` (distance), `damage`
-- (tenths of a health point) or `count`. Null: the default, which follows from the key (the game's distances end
-- in `_one_cm`, …), so a new game version's defaults need no migration. `display_name` keeps its meaning: the
-- admin's name, null for the default built from the game's own English names.
ALTER TABLE stat_definitions ADD COLUMN unit text CHECK (unit IN ('ticks', 'cm', 'damage', 'count'));
