#!/usr/bin/env python3
"""What a person could write in an afternoon: `events import` of a JSONL export with Python's
standard library only (json + sqlite3), one transaction, miga's schema and indexes. The yard
stick for miga's own import (bench/import.sh): usage `import_python.py FILE DB`."""
import datetime, json, sqlite3, sys

def main():
    path, database = sys.argv[1], sys.argv[2]
    db = sqlite3.connect(database, isolation_level=None)
    db.execute("PRAGMA journal_mode = WAL")
    db.executescript("""
        CREATE TABLE IF NOT EXISTS events (
            id INTEGER PRIMARY KEY, ts INTEGER NOT NULL, utc_offset_min INTEGER NOT NULL,
            session TEXT NOT NULL, type TEXT NOT NULL, app TEXT NOT NULL,
            content_id TEXT, wait_ms INTEGER, detail TEXT);
        CREATE INDEX IF NOT EXISTS events_by_type_app_ts ON events(type, app, ts);
        CREATE INDEX IF NOT EXISTS events_by_identity ON events(ts, session, app, type);
        CREATE INDEX IF NOT EXISTS events_exit_days ON events((ts + utc_offset_min * 60000) / 86400000)
            WHERE type = 'exit_selected';
    """)
    db.execute("BEGIN IMMEDIATE")
    rows = []
    with open(path, encoding="utf-8") as lines:
        for line in lines:
            if not line.strip():
                continue
            event = json.loads(line)
            when = datetime.datetime.fromisoformat(event["ts"])
            offset = int(when.utcoffset().total_seconds() // 60)
            ts = int(when.timestamp() * 1000)
            detail = event.get("detail")
            rows.append((ts, offset, event["session"], event["type"], event["app"], event.get("content_id"),
                         event.get("wait_ms"), None if detail is None else json.dumps(detail)))
            if len(rows) == 10_000:
                db.executemany("INSERT INTO events (ts, utc_offset_min, session, type, app, content_id, wait_ms, detail) "
                               "VALUES (?, ?, ?, ?, ?, ?, ?, ?)", rows)
                rows.clear()
    db.executemany("INSERT INTO events (ts, utc_offset_min, session, type, app, content_id, wait_ms, detail) "
                   "VALUES (?, ?, ?, ?, ?, ?, ?, ?)", rows)
    db.execute("COMMIT")

main()
