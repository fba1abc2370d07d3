import { describe, expect, it } from 'vitest';
import { createDateFormatter, DatePatternError, isValidTimeZone } from './date-format.ts';

const at = new Date(Date.UTC(2024, 0, 5, 13, 4, 9, 7));

describe('date formatting', () => {
  it('renders the default pattern in UTC', () => {
    expect(createDateFormatter('yyyy/MM/dd HH:mm:ss', 'UTC').format(at)).toBe('2024/01/05 13:04:09');
  });

  it('supports the common Java pattern letters', () => {
    const f = createDateFormatter("yy M d H h m s SSS a EEE EEEE MMM MMMM 'T' ''", 'UTC');
    expect(f.format(at)).toBe("24 1 5 13 1 4 9 007 PM Fri Friday Jan January T '");
  });

  it('converts to the configured zone, including daylight saving time', () => {
    expect(createDateFormatter('yyyy-MM-dd HH:mm XXX', 'Europe/Berlin').format(at)).toBe('2024-01-05 14:04 +01:00');
    const summer = new Date(Date.UTC(2024, 6, 1, 22, 30));
    expect(createDateFormatter('yyyy-MM-dd HH:mm', 'Europe/Berlin').format(summer)).toBe('2024-07-02 00:30');
    expect(createDateFormatter('dd/MM hh:mm a', 'America/New_York').format(at)).toBe('05/01 08:04 AM');
  });

  it('rejects unknown letters, reserved characters and unclosed quotes', () => {
    expect(() => createDateFormatter('yyyy b', 'UTC')).toThrow(DatePatternError);
    expect(() => createDateFormatter('{x}', 'UTC')).toThrow(DatePatternError);
    expect(() => createDateFormatter("'abc", 'UTC')).toThrow(DatePatternError);
  });

  it('validates IANA zones', () => {
    expect(isValidTimeZone('Europe/Berlin')).toBe(true);
    expect(isValidTimeZone('UTC')).toBe(true);
    expect(isValidTimeZone('Mars/Base')).toBe(false);
    expect(isValidTimeZone('')).toBe(false);
  });
});
