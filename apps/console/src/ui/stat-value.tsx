import { formatStatValue, type StatUnit } from '@statboard/sdk/format';

/**
 * A statistic's value as people read it ("12 h 5 min", "3.4 km", "7.5 ♥"); screen readers hear the long form
 * ("7.5 hearts") where it differs, and a pointer shows it as a title.
 */
export function StatValue({ value, unit }: { value: number; unit: StatUnit }) {
  const short = formatStatValue(value, unit);
  const long = formatStatValue(value, unit, { style: 'long' });
  if (short === long) return <>{short}</>;
  return (
    <span title={long}>
      <span aria-hidden="true">{short}</span>
      <span className="visually-hidden">{long}</span>
    </span>
  );
}
