"""Probe: temporal functions, intervals and time units (see _probe_lib for how to run)."""
import datetime as dt
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _probe_lib import main  # noqa: E402

DATA = [
    (1, dt.date(2024, 2, 29), dt.datetime(2024, 2, 29, 13, 45, 30, 123000), dt.time(13, 45, 30),
     "2024-03-01 10:00:00", "2024-03-01"),
    (2, dt.date(1999, 12, 31), dt.datetime(2000, 1, 1, 0, 0, 0), dt.time(0, 0, 0),
     "1999-12-31 23:59:59", "1999-12-31"),
    (3, None, None, None, None, None),
]


def schema(T):
    return T.ROW([T.FIELD("id", T.INT()), T.FIELD("d", T.DATE()), T.FIELD("ts", T.TIMESTAMP(3)),
                  T.FIELD("tm", T.TIME()), T.FIELD("s", T.STRING()), T.FIELD("ds", T.STRING())])


def cases(E, X):
    d, ts, tm, s, ds = (E.col(x) for x in ("d", "ts", "tm", "s", "ds"))
    U, P = X.TimeIntervalUnit, X.TimePointUnit
    out = []
    for unit in ("YEAR", "QUARTER", "MONTH", "WEEK", "DAY", "HOUR", "MINUTE", "SECOND"):
        out.append((f"extract_ts_{unit}", lambda unit=unit: ts.extract(getattr(U, unit))))
    for unit in ("YEAR", "MONTH", "DAY"):
        out.append((f"extract_date_{unit}", lambda unit=unit: d.extract(getattr(U, unit))))
    out.append(("extract_time_HOUR", lambda: tm.extract(U.HOUR)))
    for unit in ("YEAR", "QUARTER", "MONTH", "WEEK", "DAY", "HOUR", "MINUTE", "SECOND"):
        out.append((f"floor_ts_{unit}", lambda unit=unit: ts.floor(getattr(U, unit))))
        out.append((f"ceil_ts_{unit}", lambda unit=unit: ts.ceil(getattr(U, unit))))
    out.append(("floor_date_MONTH", lambda: d.floor(U.MONTH)))
    out.append(("ceil_date_YEAR", lambda: d.ceil(U.YEAR)))
    for unit in ("YEAR", "QUARTER", "MONTH", "WEEK", "DAY", "HOUR", "MINUTE", "SECOND"):
        out.append((f"diff_{unit}", lambda unit=unit: E.timestamp_diff(
            getattr(P, unit), ts, E.lit("2025-06-15 08:00:00").to_timestamp)))
    out.append(("diff_DAY_dates", lambda: E.timestamp_diff(P.DAY, d, E.lit("2024-03-10").to_date)))
    out += [
        ("ts_plus_days", lambda: ts + E.lit(1).days),
        ("ts_minus_minutes", lambda: ts - E.lit(90).minutes),
        ("ts_plus_millis", lambda: ts + E.lit(1500).millis),
        ("ts_plus_seconds", lambda: ts + E.lit(61).seconds),
        ("ts_plus_hours", lambda: ts + E.lit(25).hours),
        ("ts_plus_weeks", lambda: ts + E.lit(1).weeks),
        ("ts_plus_months", lambda: ts + E.lit(1).months),
        ("ts_plus_years", lambda: ts + E.lit(1).years),
        ("ts_plus_quarters", lambda: ts + E.lit(1).quarters),
        ("date_plus_days", lambda: d + E.lit(2).days),
        ("date_plus_months", lambda: d + E.lit(12).months),
        ("interval_hours", lambda: E.lit(3).hours),
        ("interval_months", lambda: E.lit(14).months),
        ("interval_day", lambda: E.lit(2).day),
        ("to_date_fn", lambda: E.to_date(ds)),
        ("to_date_fmt", lambda: E.to_date(E.lit("31/12/2023"), "dd/MM/yyyy")),
        ("to_timestamp_fn", lambda: E.to_timestamp(s)),
        ("to_timestamp_fmt", lambda: E.to_timestamp(E.lit("2023-12-31 23:59"), "yyyy-MM-dd HH:mm")),
        ("to_timestamp_ltz_s", lambda: E.to_timestamp_ltz(E.lit(1700000000), 0)),
        ("to_timestamp_ltz_ms", lambda: E.to_timestamp_ltz(E.lit(1700000000123), 3)),
        ("date_format", lambda: E.date_format(ts, "yyyy/MM/dd HH:mm")),
        ("date_format_date", lambda: E.date_format(d, "yyyyMMdd")),
        ("from_unixtime", lambda: E.from_unixtime(E.lit(86400))),
        ("from_unixtime_fmt", lambda: E.from_unixtime(E.lit(86400), "yyyy-MM-dd")),
        ("unix_timestamp_str", lambda: E.unix_timestamp(s)),
        ("unix_timestamp_fmt", lambda: E.unix_timestamp(ds, "yyyy-MM-dd")),
        ("convert_tz", lambda: E.convert_tz(s, "UTC", "Asia/Shanghai")),
        ("temporal_overlaps", lambda: E.temporal_overlaps(ts, E.lit(2).hours, ts + E.lit(1).hours, E.lit(1).hours)),
        ("temporal_overlaps_no", lambda: E.temporal_overlaps(ts, E.lit(1).hours, ts + E.lit(2).hours, E.lit(1).hours)),
        ("str_to_date_prop", lambda: ds.to_date),
        ("str_to_time_prop", lambda: E.lit("13:14:15").to_time),
        ("str_to_timestamp_prop", lambda: s.to_timestamp),
        ("cast_ts_str", lambda: ts.cast(sys.modules[E.__name__.rsplit(".", 1)[0]].DataTypes.STRING())),
        ("cast_ts_date", lambda: ts.cast(sys.modules[E.__name__.rsplit(".", 1)[0]].DataTypes.DATE())),
        ("cmp_ts", lambda: ts > E.lit("2000-01-01 00:00:00").to_timestamp),
        ("current_date_type", lambda: E.current_date()),
        ("current_timestamp_type", lambda: E.current_timestamp()),
        ("local_timestamp_type", lambda: E.local_timestamp()),
        ("current_time_type", lambda: E.current_time()),
        ("local_time_type", lambda: E.local_time()),
        ("unix_timestamp_now", lambda: E.unix_timestamp() > 1700000000),
    ]
    return out


if __name__ == "__main__":
    main(sys.modules[__name__])
