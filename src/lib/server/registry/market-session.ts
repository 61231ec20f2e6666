/**
 * The market session the `marketHoursOnly` fuse refers to: the 24/5 session of the stock
 * and ETF tokens' price feeds (ORACLE_POLICY.marketHours), from Sunday 20:00 to Friday 20:00
 * in New York time, daylight saving included. Exchange holidays are not modelled: an
 * activity on a holiday inside that window is not flagged, and the policy says so.
 */
export const MARKET_SESSION = {
  id: 'svc-market-session-24-5',
  timeZone: 'America/New_York',
  opens: 'Sunday 20:00',
  closes: 'Friday 20:00',
  description:
    'Open from Sunday 20:00 to Friday 20:00, New York time (24 hours a day, 5 days a week); closed from Friday 20:00 to Sunday 20:00.',
  holidays: 'not modelled: an activity on an exchange holiday inside the window is not flagged',
} as const;

const parts = new Intl.DateTimeFormat('en-US', {
  timeZone: MARKET_SESSION.timeZone,
  weekday: 'short',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** Whether an instant falls inside the 24/5 session. */
export function isWithinMarketSession(at: Date): boolean {
  const p = Object.fromEntries(parts.formatToParts(at).map((x) => [x.type, x.value]));
  const minutes = Number(p.hour) * 60 + Number(p.minute);
  const eightPm = 20 * 60;
  switch (p.weekday) {
    case 'Sat':
      return false;
    case 'Sun':
      return minutes >= eightPm;
    case 'Fri':
      return minutes < eightPm;
    default:
      return true;
  }
}
