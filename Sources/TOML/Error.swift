/// A place in a TOML document.
///
/// Both fields are 1-based. `column` counts Unicode scalars from the start of the line (a tab
/// counts as one), because that is what editors show; a UTF-8 byte-order mark at the start of
/// the file is not counted.
public struct TOMLPosition: Equatable, Hashable, Sendable, CustomStringConvertible {
    public var line: Int
    public var column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    public var description: String { "line \(line), column \(column)" }
}

/// Why a document could not be read, and where.
///
/// Every malformed input ends in one of these (never a crash), so callers can show the person
/// exactly which line of their config to fix.
public struct TOMLError: Error, Equatable, Hashable, Sendable, CustomStringConvertible {
    public var line: Int
    public var column: Int
    /// Short, lower-case, plain English; says what is wrong, e.g. `duplicate key "a" (first defined on line 2)`.
    public var message: String

    public init(line: Int, column: Int, message: String) {
        self.line = line
        self.column = column
        self.message = message
    }

    public init(_ message: String, at position: TOMLPosition) {
        self.init(line: position.line, column: position.column, message: message)
    }

    public var position: TOMLPosition { TOMLPosition(line: line, column: column) }

    /// `line L, column C: message`, ready to prefix with a file name.
    public var description: String { "line \(line), column \(column): \(message)" }
}
