public enum MigaVersion {
    public static let current = "0.1.0"
}
