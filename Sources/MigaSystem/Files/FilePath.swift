/// Path arithmetic on strings, as NSString's path methods did it (miga no longer loads
/// Foundation for them): trailing slashes are ignored, "/" is its own parent.
public enum FilePath {
    /// "/a/b" → "/a", "/a" → "/", "a" → "", "/a/b/" → "/a".
    public static func parent(of path: String) -> String {
        let trimmed = withoutTrailingSlashes(path)
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        let parent = withoutTrailingSlashes(String(trimmed[..<slash]))
        return parent.isEmpty ? "/" : parent
    }

    /// "/a/b" → "b", "/a/b/" → "b", "/" → "/".
    public static func lastComponent(of path: String) -> String {
        let trimmed = withoutTrailingSlashes(path)
        guard trimmed != "/" else { return "/" }
        return trimmed.lastIndex(of: "/").map { String(trimmed[trimmed.index(after: $0)...]) } ?? trimmed
    }

    private static func withoutTrailingSlashes(_ path: String) -> String {
        var path = Substring(path)
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        return String(path)
    }
}
