import CSQLite

/// The few things miga asks of SQLite, over its C API. GRDB did this before; it imports all
/// of Foundation, whose ICU data was most of the static binary (64 MiB, 10 ms to start) —
/// see the design's "Code layout" and docs/PERFORMANCE.md. Everything here is synchronous, on
/// one connection, from one thread.
final class SQLiteConnection {
    let handle: OpaquePointer
    private(set) var isOpen = true

    init(path: String, busyTimeout seconds: Double) throws {
        handle = try Self.open(path, flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        sqlite3_busy_timeout(handle, Int32(min(seconds * 1000, Double(Int32.max))))
    }

    /// A read-only connection to `uri` (`file:…?immutable=1` reads a file as it is on disk).
    init(uri: String) throws {
        handle = try Self.open(uri, flags: SQLITE_OPEN_READONLY | SQLITE_OPEN_URI)
    }

    private static func open(_ name: String, flags: Int32) throws -> OpaquePointer {
        var db: OpaquePointer?
        let code = sqlite3_open_v2(name, &db, flags | SQLITE_OPEN_NOMUTEX, nil)
        guard code == SQLITE_OK, let db else {
            let error = SQLiteError(code: code, message: db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory", sql: nil)
            sqlite3_close_v2(db)
            throw error
        }
        sqlite3_extended_result_codes(db, 1)
        return db
    }

    deinit { close() }

    /// Closing the last connection checkpoints the WAL and removes it. Statements still held
    /// keep the connection until they go (sqlite3_close_v2).
    func close() {
        guard isOpen else { return }
        isOpen = false
        sqlite3_close_v2(handle)
    }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    var changes: Int { Int(sqlite3_changes(handle)) }

    /// Runs one or more statements that take no arguments and return nothing to read.
    func execute(_ sql: String) throws {
        try checkOpen(sql)
        let code = sqlite3_exec(handle, sql, nil, nil, nil)
        guard code == SQLITE_OK else { throw error(code, sql) }
    }

    func execute(_ sql: String, _ arguments: [SQLiteValue]) throws {
        let statement = try prepare(sql)
        try statement.bind(arguments)
        while try statement.step() {}
    }

    func prepare(_ sql: String) throws -> SQLiteStatement {
        try checkOpen(sql)
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard code == SQLITE_OK, let statement else { throw error(code, sql) }
        return SQLiteStatement(handle: statement, connection: self, sql: sql)
    }

    /// Every row, each as its columns' values.
    func rows(_ sql: String, _ arguments: [SQLiteValue] = []) throws -> [[SQLiteValue]] {
        var rows: [[SQLiteValue]] = []
        try forEachRow(sql, arguments) { rows.append($0.values) }
        return rows
    }

    func forEachRow(_ sql: String, _ arguments: [SQLiteValue] = [], _ body: (SQLiteStatement) throws -> Void) throws {
        let statement = try prepare(sql)
        try statement.bind(arguments)
        while try statement.step() { try body(statement) }
    }

    /// The first column of the first row; `.null` when there is no row.
    func value(_ sql: String, _ arguments: [SQLiteValue] = []) throws -> SQLiteValue {
        let statement = try prepare(sql)
        try statement.bind(arguments)
        return try statement.step() ? statement.value(0) : .null
    }

    /// The first column of every row.
    func column(_ sql: String, _ arguments: [SQLiteValue] = []) throws -> [SQLiteValue] {
        var values: [SQLiteValue] = []
        try forEachRow(sql, arguments) { values.append($0.value(0)) }
        return values
    }

    /// `body` inside BEGIN IMMEDIATE (writes: the lock is taken before anything is read, so two
    /// gates never both read and then both fail to write) or a deferred BEGIN (reads: one
    /// snapshot across several statements). Any error rolls back everything.
    func transaction<T>(immediate: Bool, _ body: () throws -> T) throws -> T {
        try execute(immediate ? "BEGIN IMMEDIATE" : "BEGIN")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            if sqlite3_get_autocommit(handle) == 0 { _ = sqlite3_exec(handle, "ROLLBACK", nil, nil, nil) }
            throw error
        }
    }

    /// Use after `close` is an error, never a use of freed memory.
    private func checkOpen(_ sql: String) throws {
        guard isOpen else { throw SQLiteError(code: SQLITE_MISUSE, message: "the database connection was closed", sql: sql) }
    }

    func error(_ code: Int32, _ sql: String?) -> SQLiteError {
        SQLiteError(code: code, message: String(cString: sqlite3_errmsg(handle)), sql: sql)
    }
}

/// A prepared statement; finalized when released.
final class SQLiteStatement {
    let handle: OpaquePointer
    let sql: String
    private let connection: SQLiteConnection

    fileprivate init(handle: OpaquePointer, connection: SQLiteConnection, sql: String) {
        self.handle = handle
        self.connection = connection
        self.sql = sql
    }

    deinit { sqlite3_finalize(handle) }

    func bind(_ arguments: [SQLiteValue]) throws {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        for (offset, argument) in arguments.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch argument {
            case .null: code = sqlite3_bind_null(handle, index)
            case .integer(let number): code = sqlite3_bind_int64(handle, index, number)
            case .real(let number): code = sqlite3_bind_double(handle, index, number)
            case .text(var text): code = text.withUTF8 { sqliteBindText(handle, index, UnsafeRawBufferPointer($0), copying: true) }
            case .blob(let bytes): code = bytes.withUnsafeBytes {
                sqlite3_bind_blob64(handle, index, $0.baseAddress ?? UnsafeRawPointer(bitPattern: 1), UInt64($0.count), sqliteTransient)
            }
            }
            guard code == SQLITE_OK else { throw connection.error(code, sql) }
        }
    }

    /// Steps once: true while there is a row to read.
    func step() throws -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let code: throw connection.error(code, sql)
        }
    }

    var columnCount: Int { Int(sqlite3_column_count(handle)) }

    /// The current row's column `index`, whatever type the file holds there.
    func value(_ index: Int) -> SQLiteValue {
        let column = Int32(index)
        switch sqlite3_column_type(handle, column) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(handle, column))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(handle, column))
        case SQLITE_TEXT:
            guard let text = sqlite3_column_text(handle, column) else { return .text("") }
            let count = Int(sqlite3_column_bytes(handle, column))
            return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(handle, column))
            guard count > 0, let bytes = sqlite3_column_blob(handle, column) else { return .blob([]) }
            return .blob(Array(UnsafeRawBufferPointer(start: bytes, count: count)))
        default: return .null
        }
    }

    var values: [SQLiteValue] { (0..<columnCount).map(value) }

    /// The current row's column `index` as the bytes of its text, read in place (valid until
    /// the next step): for adding up many rows without making a String of each. nil unless
    /// the column holds text.
    func text(_ index: Int) -> UnsafeBufferPointer<UInt8>? {
        let column = Int32(index)
        guard sqlite3_column_type(handle, column) == SQLITE_TEXT else { return nil }
        let text = sqlite3_column_text(handle, column) // before its length, as SQLite asks
        return UnsafeBufferPointer(start: text, count: text == nil ? 0 : Int(sqlite3_column_bytes(handle, column)))
    }
}

/// SQLITE_TRANSIENT: SQLite copies the bytes, which may not outlive the call.
let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// Binds UTF-8 `bytes` as text: copied, or (not `copying`, SQLITE_STATIC) read in place, for
/// bytes that outlive the statement's next step.
@discardableResult
func sqliteBindText(_ statement: OpaquePointer, _ index: Int32, _ bytes: UnsafeRawBufferPointer, copying: Bool) -> Int32 {
    // A null pointer would bind NULL, not an empty text.
    guard let base = bytes.baseAddress, !bytes.isEmpty else { return sqlite3_bind_text64(statement, index, "", 0, sqliteTransient, UInt8(SQLITE_UTF8)) }
    return sqlite3_bind_text64(statement, index, base.assumingMemoryBound(to: CChar.self), UInt64(bytes.count),
                               copying ? sqliteTransient : nil, UInt8(SQLITE_UTF8))
}

/// A value as SQLite stores it: any column can hold any of these.
enum SQLiteValue: Equatable, Sendable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])

    init(_ number: Int) { self = .integer(Int64(number)) }
    init(_ number: Int64) { self = .integer(number) }
    init(_ text: String) { self = .text(text) }
    init(_ number: Int?) { self = number.map { .integer(Int64($0)) } ?? .null }
    init(_ text: String?) { self = text.map(SQLiteValue.text) ?? .null }

    var isNull: Bool { self == .null }
}

extension SQLiteValue: ExpressibleByIntegerLiteral, ExpressibleByStringLiteral, ExpressibleByNilLiteral {
    init(integerLiteral value: Int64) { self = .integer(value) }
    init(stringLiteral value: String) { self = .text(value) }
    init(nilLiteral: ()) { self = .null }
}

/// A failed SQLite call: its (extended) result code and SQLite's message.
struct SQLiteError: Error, CustomStringConvertible {
    var code: Int32
    var message: String
    var sql: String?

    var primaryCode: Int32 { code & 0xFF }

    /// One line: SQLite's words and code. The statement stays out of it (it spans lines and
    /// tells a person nothing); `sql` keeps it for tests and debugging.
    var description: String {
        "\(message) (SQLite error \(code))"
    }
}
