-- A time with a zone suffix (+hh:mm, -hh:mm, Z) is UTC already: "utc" leaves it, so a
-- time-only value keeps its default date 2000-01-01 until something computes its day
SELECT date('00:00+05:30', 'utc', 'start of month');
SELECT datetime('00:00+05:30', 'utc', 'start of month');
SELECT datetime('00:00+05:30', 'utc');
SELECT datetime('00:00-05:30', 'utc', 'start of day');
SELECT datetime('12:00Z', 'utc', 'start of year');
SELECT datetime('2000-03-15 10:00+01:00', 'utc', 'start of month');
SELECT datetime('2000-03-15 10:00Z', 'utc', '+1 day');
SELECT julianday('00:00+05:30', 'utc', 'weekday 3');
SELECT unixepoch('00:00+05:30', 'utc', 'utc');
SELECT datetime('10:30', 'utc', 'start of month');
SELECT date('00:00+05:30', 'start of month');
